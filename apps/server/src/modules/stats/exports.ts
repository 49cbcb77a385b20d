import { randomBytes } from 'node:crypto';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  can,
  EXPORT_EVENT,
  EXPORT_KEEP_DAYS,
  EXPORT_LIST_SIZE,
  EXPORT_MAX_ACTIVE,
  EXPORT_STATUSES,
  type ExportFormat,
  type ExportJobKind,
  type ExportKind,
  type ExportsListWire,
  type ExportTab,
  type ExportValues,
  type ExportWire,
  isExportAvailable,
  isMessageKey,
  type Locale,
  type MessageKey,
  translate,
} from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { and, desc, eq, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { objects, spaces, statsExports, users } from '../../db/schema';
import { AppError, badRequest } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import type { Mailer } from '../../mail/mailer';
import type { EventBus } from '../../realtime/bus';
import { type InboxScope, scopeFor } from '../inbox/read/scope';
import { spaceSender } from '../notifications/email';
import { loadActor, type ServerActor } from '../spaces/actor';
import { csvSink, xlsxSink } from './export-sinks';
import { COLUMNS, exportHeader, select, sourceOf } from './exports-sql';
import { checkTabExport, type TabExportFilters, tabFiltersOf, writeTabExport } from './exports-tab';
import { resolvePeriod } from './period';

// Background exports of raw rows (issue 15 item 5; docs/statistics.md "Exports"). Starting one needs
// `stats.export` in the space and SPEC §6's availability rule (isExportAvailable). The job reads the rows
// in id order, a batch at a time (keyset: `id > last`), and streams them into a CSV or XLSX file under
// DATA_DIR/exports, so memory stays flat whatever the row count; progress goes to the creator over the
// socket. Rows are read with the creator's rights at run time: their space only, and only their user
// group's accounts when they are limited to one.

type ExportRow = typeof statsExports.$inferSelect;

export interface ExportDeps {
  db: Db;
  mailer: Mailer;
  bus: EventBus;
  appUrl: string;
  dataDir: string;
  log: Logger;
}

export const exportsDir = (dataDir: string) => join(dataDir, 'exports');
/** Ids per read at first (the window then adapts to the rows' density; see runExport). */
export const EXPORT_BATCH = 5000;
/** A running export whose job has not written for this long is taken over by another node. */
export const EXPORT_LEASE_MS = 120_000;
/** Progress goes to the socket at most this often (and once at the end). */
const PROGRESS_EVERY_MS = 300;
const DAY_MS = 86_400_000;
const seconds = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

export const EXPORT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

// ---------------------------------------------------------------------------------------------------
// Starting, listing, downloading

/** The caller's scope of `stats.export` narrowed to the space; 403 when they may not export there. */
async function scopeIn(db: Db, actor: ServerActor, spaceId: number): Promise<InboxScope> {
  const full = await scopeFor(db, actor, 'stats.export');
  if (!full.spaces.has(spaceId) || !can(actor, 'stats.export', spaceId))
    throw new AppError(403, 'error.noAccess');
  return { spaces: new Map([[spaceId, full.spaces.get(spaceId)!]]) };
}

/** SPEC §6 (shared isExportAvailable): some space not a trial, or accounts connected and none YouTube. */
async function available(db: Db, actor: ServerActor): Promise<boolean> {
  const spaceIds = actor.rows.map((r) => r.space.id);
  const objs = spaceIds.length
    ? await db.select({ provider: objects.provider }).from(objects).where(inArray(objects.spaceId, spaceIds))
    : [];
  return isExportAvailable({ actor, objects: objs });
}

export function exportWire(locale: Locale, row: ExportRow): ExportWire {
  return {
    id: row.id,
    space_id: row.spaceId,
    kind: row.kind as ExportJobKind,
    tab: row.kind === 'tab' ? (row.filters.tab as ExportTab) : null,
    user_id: row.kind === 'tab' && typeof row.filters.user_id === 'number' ? row.filters.user_id : null,
    format: row.format as ExportFormat,
    status: row.status as ExportWire['status'],
    period_from: row.periodFrom,
    period_to: row.periodTo,
    rows_done: row.rowsDone,
    rows_total: row.rowsTotal,
    size: row.size,
    error: row.error === null ? null : isMessageKey(row.error) ? translate(locale, row.error) : row.error,
    created_at: seconds(row.createdAt)!,
    finished_at: seconds(row.finishedAt),
    expires_at: seconds(row.expiresAt),
  };
}

/** The inbox list query an export runs: the stats period as instants, companies as their accounts. */
async function filtersOf(db: Db, timezone: string, input: ExportValues, now: Date) {
  const period = await resolvePeriod(db, timezone, input, now);
  let objectIds = input.object_id;
  if (input.company_id.length > 0) {
    const byCompany = await db
      .select({ id: objects.id })
      .from(objects)
      .where(and(eq(objects.spaceId, input.space_id), inArray(objects.companyId, input.company_id)));
    const ids = byCompany.map((o) => o.id).filter((id) => objectIds.length === 0 || objectIds.includes(id));
    // No account of those companies: no rows (no account has id 0).
    objectIds = ids.length > 0 ? ids : [0];
  }
  const itemKinds = input.item_kind.filter((k) => k !== 'chat');
  const filters: Record<string, unknown> = {
    status: input.status.length > 0 ? input.status : [...EXPORT_STATUSES],
    created_at_from: String(period.start),
    created_at_to: String(period.end - 1),
    ...(input.provider.length ? { provider: input.provider } : {}),
    ...(objectIds.length ? { object_id: objectIds.map(String) } : {}),
    ...(itemKinds.length ? { kind: itemKinds } : {}),
    ...(input.tag_id.length ? { tag_id: input.tag_id.map(String) } : {}),
  };
  return { filters, period };
}

export async function startExport(
  deps: Pick<ExportDeps, 'db' | 'bus'>,
  actor: ServerActor,
  locale: Locale,
  input: ExportValues,
  now: Date,
): Promise<ExportWire> {
  const { db } = deps;
  await scopeIn(db, actor, input.space_id);
  if (!(await available(db, actor))) throw new AppError(403, 'export.unavailable');
  const [active] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(statsExports)
    .where(and(eq(statsExports.userId, actor.userId), inArray(statsExports.status, ['queued', 'running'])));
  if (Number(active?.n ?? 0) >= EXPORT_MAX_ACTIVE) throw badRequest('export.tooMany');
  const space = actor.rows.find((r) => r.space.id === input.space_id)!.space;
  const raw = await filtersOf(db, space.timezone, input, now);
  const { period } = raw;
  const tab = input.kind === 'tab' ? tabFiltersOf(input, period) : null;
  if (tab) await checkTabExport(db, actor, tab, now);
  const filters = tab ? { ...tab } : raw.filters;
  const [row] = await db
    .insert(statsExports)
    .values({
      spaceId: input.space_id,
      userId: actor.userId,
      kind: input.kind,
      format: input.format,
      locale,
      filters,
      periodFrom: period.from,
      periodTo: period.to,
      createdAt: now,
    })
    .returning();
  const wire = exportWire(locale, row!);
  await deps.bus.publish({
    type: EXPORT_EVENT,
    spaceId: row!.spaceId,
    userIds: [row!.userId],
    payload: { export: wire },
  });
  return wire;
}

/** The caller's own exports of the space, newest first (others' exports are never listed). */
export async function listExports(
  db: Db,
  actor: ServerActor,
  locale: Locale,
  spaceId: number,
): Promise<ExportsListWire> {
  await scopeIn(db, actor, spaceId);
  const rows = await db
    .select()
    .from(statsExports)
    .where(and(eq(statsExports.spaceId, spaceId), eq(statsExports.userId, actor.userId)))
    .orderBy(desc(statsExports.id))
    .limit(EXPORT_LIST_SIZE);
  return {
    space_id: spaceId,
    available: await available(db, actor),
    items: rows.map((r) => exportWire(locale, r)),
  };
}

/**
 * The file of one of the caller's exports: 404 for anyone else's (another member's, another space's,
 * ids are not disclosed), 410 once expired, 409 while not finished. The caller must still be allowed to
 * export in the space.
 */
export async function exportFile(db: Db, actor: ServerActor, dataDir: string, id: number, now: Date) {
  const [row] = await db.select().from(statsExports).where(eq(statsExports.id, id));
  if (!row || row.userId !== actor.userId || !actor.rows.some((r) => r.space.id === row.spaceId))
    throw new AppError(404, 'error.notFound');
  await scopeIn(db, actor, row.spaceId);
  if (row.status === 'expired' || (row.expiresAt && row.expiresAt <= now))
    throw new AppError(410, 'export.expired');
  if (row.status !== 'done' || !row.file) throw new AppError(409, 'export.notReady');
  return {
    path: join(exportsDir(dataDir), row.file),
    name: `${row.kind === 'tab' ? row.filters.tab : row.kind}-${row.periodFrom}-${row.periodTo}.${row.format}`,
    type: EXPORT_TYPES[row.format as ExportFormat],
    size: row.size,
  };
}

// ---------------------------------------------------------------------------------------------------
// The job

/**
 * One read of an export with PostgreSQL's JIT off (`SET LOCAL` in a transaction of its own): above its
 * cost threshold PostgreSQL compiles a big window's expressions, ~140 ms a window that a plain range read
 * never wins back.
 */
function readWithoutJit<T>(db: Db, query: SQL): Promise<{ rows: T[] }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL jit = off`);
    return (await tx.execute(query)) as unknown as { rows: T[] };
  });
}

/**
 * Claims the oldest waiting export (or a running one whose node stopped writing: its lease ran out) in
 * one statement over a `FOR UPDATE SKIP LOCKED` sub-select, so several nodes never take the same one.
 */
export async function claimExport(db: Db, now: Date, spaceIds?: number[]): Promise<ExportRow | null> {
  const stale = new Date(now.getTime() - EXPORT_LEASE_MS);
  const candidate = db
    .select({ id: statsExports.id })
    .from(statsExports)
    .where(
      and(
        sql`(${statsExports.status} = 'queued' OR (${statsExports.status} = 'running' AND ${statsExports.heartbeatAt} < ${stale.toISOString()}::timestamptz))`,
        spaceIds ? inArray(statsExports.spaceId, spaceIds) : undefined,
      ),
    )
    .orderBy(statsExports.id)
    .limit(1)
    .for('update', { skipLocked: true });
  const [row] = await db
    .update(statsExports)
    .set({ status: 'running', heartbeatAt: now, rowsDone: 0 })
    .where(inArray(statsExports.id, candidate))
    .returning();
  return row ?? null;
}

/** The export's creator when they may still export in its space; null otherwise. */
async function creatorOf(db: Db, row: ExportRow): Promise<ServerActor | null> {
  const [user] = await db.select().from(users).where(eq(users.id, row.userId));
  if (!user) return null;
  const actor = await loadActor(db, user);
  return can(actor, 'stats.export', row.spaceId) ? actor : null;
}

/**
 * Writes one claimed export: counts its rows, streams them batch by batch into the file, reports
 * progress, then marks it done (with size and expiry) and mails its creator a link — or marks it failed.
 * `batch` rows are read per query.
 */
export async function runExport(
  deps: ExportDeps,
  row: ExportRow,
  now: () => Date,
  batch = EXPORT_BATCH,
): Promise<ExportRow> {
  const { db } = deps;
  const locale = row.locale as Locale;
  const update = async (set: Partial<ExportRow>) => {
    const [next] = await db.update(statsExports).set(set).where(eq(statsExports.id, row.id)).returning();
    return next!;
  };
  const publish = (r: ExportRow) =>
    deps.bus.publish({
      type: EXPORT_EVENT,
      spaceId: r.spaceId,
      userIds: [r.userId],
      payload: { export: exportWire(locale, r) },
    });
  const fail = async (error: MessageKey) => {
    const failed = await update({ status: 'failed', error, finishedAt: now() });
    await publish(failed);
    return failed;
  };
  const actor = await creatorOf(db, row);
  if (!actor) return fail('export.creatorGone');
  const [space] = await db
    .select({ timezone: spaces.timezone, name: spaces.name })
    .from(spaces)
    .where(eq(spaces.id, row.spaceId));
  if (!space) return fail('export.creatorGone');
  const file = `${row.id}-${randomBytes(12).toString('hex')}.${row.format}`;
  const path = join(exportsDir(deps.dataDir), file);
  try {
    const scope = await scopeIn(db, actor, row.spaceId);
    await mkdir(exportsDir(deps.dataDir), { recursive: true });
    let current = row;
    let done = 0;
    if (row.kind === 'tab') {
      current = await update({ heartbeatAt: now() });
      await publish(current);
      done = await writeTabExport(
        db,
        actor,
        locale,
        row.filters as unknown as TabExportFilters,
        row.format,
        path,
        now(),
      );
    } else {
      const kind = row.kind as ExportKind;
      const source = sourceOf(kind, row.filters, scope);
      // One scan for the count and the id bounds; then id windows over the primary key, each a bounded
      // range read (`id > a AND id <= b`), so every batch costs the same however far the export has got
      // (a `id > last ORDER BY id LIMIT n` page can make the planner sort every match again per page).
      const [bounds] = (
        await readWithoutJit<{ n: number; lo: number | null; hi: number | null }>(
          db,
          sql`SELECT count(*)::int AS n, min(${source.id})::float8 AS lo, max(${source.id})::float8 AS hi
          FROM ${source.from} WHERE ${source.where}`,
        )
      ).rows;
      current = await update({ rowsTotal: Number(bounds?.n ?? 0), heartbeatAt: now() });
      await publish(current);
      const header = exportHeader(kind, locale);
      const sink =
        row.format === 'xlsx'
          ? xlsxSink(path, header, translate(locale, `export.kind.${kind}` as MessageKey).slice(0, 31))
          : csvSink(path, header);
      const columns = select(kind, space.timezone);
      const width = COLUMNS[kind].length;
      const hi = Number(bounds?.hi ?? 0);
      let last = Number(bounds?.lo ?? 1) - 1;
      // The window adapts to how densely the space's matching rows lie in the id range (other spaces'
      // rows share it), staying between `batch` and 8 × `batch` ids so a batch never holds more rows.
      let window = batch;
      let reported = Date.now();
      const read = (after: number, upper: number) =>
        readWithoutJit<Record<string, unknown>>(
          db,
          sql`SELECT ${columns} FROM ${source.from} ${source.window(after, upper)}
          WHERE ${source.where} AND ${source.id} > ${after} AND ${source.id} <= ${upper} ORDER BY ${source.id}`,
        );
      // The next window is asked for as soon as this one has arrived, so the database reads it while
      // this one is written to the file (the two overlap instead of taking turns).
      let upper = Math.min(hi, last + window);
      let next = bounds?.hi !== null && last < hi ? read(last, upper) : null;
      const keys = Array.from({ length: width }, (_, i) => `c${i}`);
      while (next) {
        const res = await next;
        last = upper;
        if (res.rows.length < batch / 2) window = Math.min(window * 2, batch * 8);
        else if (res.rows.length > batch) window = Math.max(batch, Math.floor(window / 2));
        upper = Math.min(hi, last + window);
        next = last < hi ? read(last, upper) : null;
        // A failed read ahead is met when it is awaited; until then it must not count as unhandled.
        next?.catch(() => {});
        for (const r of res.rows) {
          const cells = new Array(width);
          for (let i = 0; i < width; i++) cells[i] = r[keys[i]!] ?? null;
          // Only a full stream buffer makes a write wait (no promise per row).
          const wait = sink.write(cells);
          if (wait) await wait;
        }
        done += res.rows.length;
        if (Date.now() - reported >= PROGRESS_EVERY_MS) {
          reported = Date.now();
          current = await update({ rowsDone: done, heartbeatAt: now() });
          await publish(current);
        }
      }
      await sink.close();
    }
    const size = (await stat(path)).size;
    const finished = now();
    current = await update({
      status: 'done',
      rowsDone: done,
      rowsTotal: Math.max(done, current.rowsTotal ?? 0),
      file,
      size,
      finishedAt: finished,
      expiresAt: new Date(finished.getTime() + EXPORT_KEEP_DAYS * DAY_MS),
    });
    await publish(current);
    await mailReady(deps, current, space.name);
    return current;
  } catch (error) {
    deps.log.error({ exportId: row.id, err: String(error) }, 'Export failed');
    await rm(path, { force: true });
    return fail(
      error instanceof AppError && isMessageKey(error.key) ? (error.key as MessageKey) : 'export.failed',
    );
  }
}

async function mailReady(deps: ExportDeps, row: ExportRow, spaceName: string) {
  const [user] = await deps.db
    .select({ email: users.email, locale: users.locale })
    .from(users)
    .where(eq(users.id, row.userId));
  if (!user?.email) return;
  const locale = (user.locale === 'en' ? 'en' : 'ru') as Locale;
  const link = `${deps.appUrl}${pathFor('stats-export', {}, { space_id: row.spaceId })}`;
  const text = translate(locale, 'export.ready', {
    kind:
      row.kind === 'tab'
        ? translate(locale, 'export.kind.tab', {
            tab: translate(locale, `report.tab.${row.filters.tab}` as MessageKey),
          })
        : translate(locale, `export.kind.${row.kind}` as MessageKey),
    from: row.periodFrom,
    to: row.periodTo,
    rows: String(row.rowsDone),
    expires: row.expiresAt!.toISOString().slice(0, 10),
  });
  const open = translate(locale, 'export.open');
  const escapeHtml = (s: string) =>
    s.replace(
      /[&<>"']/g,
      (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
    );
  try {
    await deps.mailer.send({
      to: user.email,
      from: await spaceSender(deps.db, row.spaceId, deps.mailer.defaultFrom),
      subject: translate(locale, 'export.subject', { space: spaceName }),
      text: `${text}\n\n${open}: ${link}\n`,
      html: `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5"><p>${escapeHtml(text)}</p><p><a href="${escapeHtml(link)}">${escapeHtml(open)}</a></p></body></html>`,
      kind: 'stats_export',
    });
  } catch (error) {
    deps.log.error({ exportId: row.id, err: String(error) }, 'Export mail not recorded');
  }
}

/** Deletes the files of exports whose time is up; the rows stay, as expired. */
export async function expireExports(deps: Pick<ExportDeps, 'db' | 'dataDir'>, now: Date): Promise<number> {
  const due = await deps.db
    .update(statsExports)
    .set({ status: 'expired' })
    .where(and(eq(statsExports.status, 'done'), lt(statsExports.expiresAt, now)))
    .returning({ file: statsExports.file });
  for (const { file } of due) if (file) await rm(join(exportsDir(deps.dataDir), file), { force: true });
  return due.length;
}

/** One job round: expire what is due, then write waiting exports one after another. */
export async function processExports(
  deps: ExportDeps,
  now: () => Date,
  spaceIds?: number[],
  max = 10,
): Promise<number> {
  await expireExports(deps, now());
  let ran = 0;
  for (; ran < max; ran++) {
    const row = await claimExport(deps.db, now(), spaceIds);
    if (!row) break;
    await runExport(deps, row, now);
  }
  return ran;
}
