import {
  can,
  isMessageKey,
  type Locale,
  REPORT_MAX_PER_SPACE,
  type ReportFrequency,
  type ReportRunWire,
  type ReportsListWire,
  type ReportTab,
  type ReportValues,
  type ReportWire,
  reportPeriod,
  type StatsQuery,
  translate,
} from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { memberships, objects, spaces, statsReportRuns, statsReports, users } from '../../db/schema';
import { AppError, badRequest } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import type { Mailer } from '../../mail/mailer';
import { spaceSender } from '../notifications/email';
import { loadActor, type ServerActor } from '../spaces/actor';
import { localToday } from './period';
import { summaryRows, workbookOf } from './report-book';
import { escapeHtml, reportHtml } from './report-html';
import { assertTabAbility, computeData, type TabData, tabSheets } from './tab-books';

// Scheduled statistics reports (issue 15 item 6; docs/statistics.md "Scheduled reports"). Managing them
// needs `stats.export` in the space: a report sends statistics out of the app, as an export does. A report
// is computed with its creator's rights at sending time (their user group's accounts when limited) and
// only ever from its own space; the recipients get what the creator could export.

type Report = typeof statsReports.$inferSelect;
type Run = typeof statsReportRuns.$inferSelect;

export interface ReportDeps {
  db: Db;
  mailer: Mailer;
  appUrl: string;
  log: Logger;
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

function assertManage(actor: ServerActor, spaceId: number) {
  if (!actor.rows.some((r) => r.space.id === spaceId) || !can(actor, 'stats.export', spaceId))
    throw new AppError(403, 'error.noAccess');
}

async function timezoneOf(db: Db, spaceId: number): Promise<{ timezone: string; name: string }> {
  const [row] = await db
    .select({ timezone: spaces.timezone, name: spaces.name })
    .from(spaces)
    .where(eq(spaces.id, spaceId));
  if (!row) throw new AppError(404, 'error.notFound');
  return row;
}

/**
 * The first moment after `now` the schedule fires: `hour`:00 local time of the space on every day
 * (daily), on the ISO weekday (weekly) or on the day of the month (monthly), turned into an instant by
 * PostgreSQL's time-zone rules (an hour skipped by a DST change moves forward with the clock).
 */
export async function nextRunAt(
  db: Db,
  timezone: string,
  r: { frequency: string; weekday: number | null; monthday: number | null; hour: number },
  now: Date,
): Promise<Date> {
  const match =
    r.frequency === 'weekly'
      ? sql`extract(isodow FROM day) = ${r.weekday}`
      : r.frequency === 'monthly'
        ? sql`extract(day FROM day) = ${r.monthday}`
        : sql`true`;
  const res = await db.execute(sql`SELECT min(at) AS at FROM (
      SELECT day, ((day + make_interval(hours => ${r.hour}::int))::timestamp AT TIME ZONE ${timezone}) AS at
      FROM generate_series(0, 62) AS g(n),
        LATERAL (SELECT (${now.toISOString()}::timestamptz AT TIME ZONE ${timezone})::date + g.n AS day) d
    ) x WHERE at > ${now.toISOString()}::timestamptz AND ${match}`);
  const at = (res as unknown as { rows: { at: string | Date }[] }).rows[0]!.at;
  return new Date(at);
}

/**
 * Recipients and accounts must be the space's own: 400 with the field otherwise. A tab asking a right of
 * its own (auto-rules, chat-bots, CSI, tasks, analytics) needs it: 403 otherwise.
 */
async function checkInput(db: Db, actor: ServerActor, input: ReportValues) {
  for (const tab of input.tabs) assertTabAbility(actor, tab, input.space_id);
  if (input.user_ids.length > 0) {
    const found = await db
      .select({ id: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.spaceId, input.space_id), inArray(memberships.userId, input.user_ids)));
    if (found.length !== new Set(input.user_ids).size)
      throw badRequest('report.recipients.notMember', {
        fields: { user_ids: 'report.recipients.notMember' },
      });
  }
  if (input.object_id.length > 0) {
    const found = await db
      .select({ id: objects.id })
      .from(objects)
      .where(and(eq(objects.spaceId, input.space_id), inArray(objects.id, input.object_id)));
    if (found.length !== new Set(input.object_id).size)
      throw badRequest('report.account.notInSpace', { fields: { object_id: 'report.account.notInSpace' } });
  }
}

function columnsOf(input: ReportValues) {
  return {
    name: input.name,
    tabs: [...new Set(input.tabs)],
    frequency: input.frequency,
    weekday: input.frequency === 'weekly' ? input.weekday : null,
    monthday: input.frequency === 'monthly' ? input.monthday : null,
    hour: input.hour,
    userIds: [...new Set(input.user_ids)],
    emails: [...new Set(input.emails)],
    locale: input.locale,
    enabled: input.enabled,
    filters: { provider: input.provider, object_id: input.object_id, kind: input.kind },
  };
}

export function runWire(locale: Locale, run: Run): ReportRunWire {
  return {
    id: run.id,
    report_id: run.reportId,
    sent_at: seconds(run.sentAt),
    manual: run.manual,
    period_from: run.periodFrom,
    period_to: run.periodTo,
    recipients: run.recipients,
    status: run.status as ReportRunWire['status'],
    error: run.error === null ? null : isMessageKey(run.error) ? translate(locale, run.error) : run.error,
  };
}

async function wire(db: Db, locale: Locale, report: Report): Promise<ReportWire> {
  const [creator] = report.createdBy
    ? await db.select({ id: users.id, name: users.name }).from(users).where(eq(users.id, report.createdBy))
    : [];
  const [last] = await db
    .select()
    .from(statsReportRuns)
    .where(eq(statsReportRuns.reportId, report.id))
    .orderBy(desc(statsReportRuns.id))
    .limit(1);
  return {
    id: report.id,
    space_id: report.spaceId,
    name: report.name,
    tabs: report.tabs as ReportTab[],
    frequency: report.frequency as ReportFrequency,
    weekday: report.weekday,
    monthday: report.monthday,
    hour: report.hour,
    user_ids: report.userIds,
    emails: report.emails,
    locale: report.locale as Locale,
    enabled: report.enabled,
    provider: report.filters.provider,
    object_id: report.filters.object_id,
    kind: report.filters.kind,
    created_by: creator ?? null,
    next_run_at: report.nextRunAt ? seconds(report.nextRunAt) : null,
    last_run: last ? runWire(locale, last) : null,
  };
}

/** The space's reports and their last 100 sendings, newest first. */
export async function listReports(
  db: Db,
  actor: ServerActor,
  locale: Locale,
  spaceId: number,
): Promise<ReportsListWire> {
  assertManage(actor, spaceId);
  const { timezone } = await timezoneOf(db, spaceId);
  const rows = await db
    .select()
    .from(statsReports)
    .where(eq(statsReports.spaceId, spaceId))
    .orderBy(statsReports.id);
  const runs = await db
    .select()
    .from(statsReportRuns)
    .where(eq(statsReportRuns.spaceId, spaceId))
    .orderBy(desc(statsReportRuns.id))
    .limit(100);
  return {
    space_id: spaceId,
    timezone,
    items: await Promise.all(rows.map((r) => wire(db, locale, r))),
    runs: runs.map((r) => runWire(locale, r)),
  };
}

/** A report of a space the caller manages reports in; 404 for anyone else (ids are not disclosed). */
async function reportFor(db: Db, actor: ServerActor, id: number): Promise<Report> {
  const [report] = await db.select().from(statsReports).where(eq(statsReports.id, id));
  if (!report || !actor.rows.some((r) => r.space.id === report.spaceId))
    throw new AppError(404, 'error.notFound');
  assertManage(actor, report.spaceId);
  return report;
}

export async function createReport(
  db: Db,
  actor: ServerActor,
  locale: Locale,
  input: ReportValues,
  now: Date,
): Promise<ReportWire> {
  assertManage(actor, input.space_id);
  await checkInput(db, actor, input);
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(statsReports)
    .where(eq(statsReports.spaceId, input.space_id));
  if (Number(count?.n ?? 0) >= REPORT_MAX_PER_SPACE) throw badRequest('report.tooMany');
  const { timezone } = await timezoneOf(db, input.space_id);
  const columns = columnsOf(input);
  const [row] = await db
    .insert(statsReports)
    .values({
      spaceId: input.space_id,
      createdBy: actor.userId,
      ...columns,
      nextRunAt: columns.enabled ? await nextRunAt(db, timezone, columns, now) : null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return wire(db, locale, row!);
}

/** Saves the report (its space stays); the schedule restarts from `now`. */
export async function updateReport(
  db: Db,
  actor: ServerActor,
  locale: Locale,
  id: number,
  input: ReportValues,
  now: Date,
): Promise<ReportWire> {
  const report = await reportFor(db, actor, id);
  if (input.space_id !== report.spaceId) throw new AppError(404, 'error.notFound');
  await checkInput(db, actor, input);
  const { timezone } = await timezoneOf(db, report.spaceId);
  const columns = columnsOf(input);
  const [row] = await db
    .update(statsReports)
    .set({
      ...columns,
      nextRunAt: columns.enabled ? await nextRunAt(db, timezone, columns, now) : null,
      updatedAt: now,
    })
    .where(eq(statsReports.id, id))
    .returning();
  return wire(db, locale, row!);
}

export async function deleteReport(db: Db, actor: ServerActor, id: number) {
  await reportFor(db, actor, id);
  await db.delete(statsReports).where(eq(statsReports.id, id));
}

/** "Send now": the report for its last finished period, at once, recorded in the history as manual. */
export async function sendReportNow(
  deps: ReportDeps,
  actor: ServerActor,
  locale: Locale,
  id: number,
  now: Date,
): Promise<ReportRunWire> {
  const report = await reportFor(deps.db, actor, id);
  return runWire(locale, await runReport(deps, report, now, actor.userId));
}

/** The creator's actor when they may still see the space's statistics; null otherwise. */
async function creatorOf(db: Db, report: Report): Promise<ServerActor | null> {
  if (report.createdBy === null) return null;
  const [user] = await db.select().from(users).where(eq(users.id, report.createdBy));
  if (!user) return null;
  const actor = await loadActor(db, user);
  return can(actor, 'stats.view', report.spaceId) ? actor : null;
}

/**
 * Computes and mails one report for the last finished period at `now` (reportPeriod), one mail per
 * recipient (outside addresses never see each other), and records the sending. Failures — the creator
 * gone or without statistics, no address, the mail server refusing — are recorded too, never thrown.
 */
export async function runReport(
  deps: ReportDeps,
  report: Report,
  now: Date,
  userId: number | null,
): Promise<Run> {
  const { db } = deps;
  const locale = report.locale as Locale;
  const space = await timezoneOf(db, report.spaceId);
  const period = reportPeriod(report.frequency as ReportFrequency, await localToday(db, space.timezone, now));
  const members = report.userIds.length
    ? await db
        .select({ email: users.email })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(and(eq(memberships.spaceId, report.spaceId), inArray(memberships.userId, report.userIds)))
    : [];
  const recipients = [
    ...new Set([...members.map((m) => m.email.toLowerCase()).filter(Boolean), ...report.emails]),
  ];
  const record = async (status: 'sent' | 'failed', error: string | null, to: string[]) => {
    const [run] = await db
      .insert(statsReportRuns)
      .values({
        reportId: report.id,
        spaceId: report.spaceId,
        userId,
        manual: userId !== null,
        periodFrom: period.from,
        periodTo: period.to,
        recipients: to,
        status,
        error,
        sentAt: now,
      })
      .returning();
    return run!;
  };
  const actor = await creatorOf(db, report);
  if (!actor) return record('failed', 'report.creatorGone', recipients);
  if (recipients.length === 0) return record('failed', 'report.noRecipients', recipients);
  const q: StatsQuery = {
    space_id: report.spaceId,
    from: period.from,
    to: period.to,
    compare: false,
    ...(report.filters.provider.length
      ? { provider: report.filters.provider as StatsQuery['provider'] }
      : {}),
    ...(report.filters.object_id.length ? { object_id: report.filters.object_id } : {}),
    ...(report.filters.kind.length ? { kind: report.filters.kind as StatsQuery['kind'] } : {}),
  };
  let mail: Awaited<ReturnType<typeof renderReport>>;
  try {
    const data = await computeData(actor, db, q, report.tabs as ReportTab[], now);
    mail = await renderReport(deps, locale, report, space, period, data);
  } catch (error) {
    deps.log.error({ reportId: report.id, err: String(error) }, 'Report could not be computed');
    return record('failed', error instanceof AppError ? error.key : 'error.generic', recipients);
  }
  const from = await spaceSender(db, report.spaceId, deps.mailer.defaultFrom);
  const sent: string[] = [];
  for (const to of recipients) {
    try {
      await deps.mailer.sendNow({ ...mail, to, from, kind: 'stats_report' });
      sent.push(to);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      deps.log.error({ reportId: report.id, err: message }, 'Report mail refused');
      return record('failed', translate(locale, 'notify.testFailed', { error: message }), sent);
    }
  }
  return record('sent', null, sent);
}

async function renderReport(
  deps: ReportDeps,
  locale: Locale,
  report: Report,
  space: { name: string; timezone: string },
  period: { from: string; to: string },
  data: TabData,
) {
  const params = {
    name: report.name,
    space: space.name,
    from: period.from,
    to: period.to,
    timezone: space.timezone,
  };
  const subject = translate(locale, 'report.subject', params);
  const intro = translate(locale, 'report.intro', params);
  const link = `${deps.appUrl}${pathFor('stats-reports')}`;
  const summary = data.overall ? summaryRows(locale, data.overall.overview) : [];
  const show = (v: number | null) => (v === null ? '—' : String(v));
  const text = `${intro}\n\n${summary.map(([k, v]) => `${k}: ${show(v)}`).join('\n')}\n\n${translate(
    locale,
    'report.open',
  )}: ${link}\n`;
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5"><p>${escapeHtml(
    intro,
  )}</p>${
    summary.length
      ? `<table style="border-collapse:collapse">${summary
          .map(
            ([k, v]) =>
              `<tr><td style="padding:2px 12px 2px 0">${escapeHtml(k)}</td><td style="text-align:right"><b>${escapeHtml(
                show(v),
              )}</b></td></tr>`,
          )
          .join('')}</table>`
      : ''
  }<p><a href="${escapeHtml(link)}">${escapeHtml(translate(locale, 'report.open'))}</a></p></body></html>`;
  const sheets = tabSheets(locale, report.tabs as ReportTab[], data);
  const content = await workbookOf(sheets);
  const page = reportHtml(locale, subject, intro, sheets);
  const base = `report-${period.from}-${period.to}`;
  return {
    subject,
    text,
    html,
    attachments: [
      { filename: `${base}.xlsx`, content, contentType: XLSX_TYPE },
      {
        filename: `${base}.html`,
        content: Buffer.from(page, 'utf8'),
        contentType: 'text/html; charset=utf-8',
      },
    ],
  };
}

/**
 * The scheduled sendings due at `now`: each due report is claimed by moving its `next_run_at` on to the
 * next moment in one transaction (`FOR UPDATE SKIP LOCKED`: several nodes never send twice), then sent.
 * A report missed while the server was down goes out once, for the last finished period.
 */
export async function sendDueReports(
  deps: ReportDeps,
  now: Date,
  spaceIds?: number[],
  batch = 50,
): Promise<number> {
  const { db } = deps;
  const claimed = await db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(statsReports)
      .where(
        and(
          sql`${statsReports.nextRunAt} <= ${now.toISOString()}::timestamptz`,
          spaceIds ? inArray(statsReports.spaceId, spaceIds) : undefined,
        ),
      )
      .orderBy(statsReports.nextRunAt)
      .limit(batch)
      .for('update', { skipLocked: true });
    const out: Report[] = [];
    for (const report of due) {
      const { timezone } = await timezoneOf(tx as unknown as Db, report.spaceId);
      await tx
        .update(statsReports)
        .set({ nextRunAt: await nextRunAt(tx as unknown as Db, timezone, report, now) })
        .where(eq(statsReports.id, report.id));
      out.push(report);
    }
    return out;
  });
  for (const report of claimed) await runReport(deps, report, now, null);
  return claimed.length;
}
