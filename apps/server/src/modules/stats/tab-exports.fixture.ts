import type { ExportsListWire, ExportWire } from '@otklik/shared';
import { asc, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, expect } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import {
  activity,
  items,
  spaces,
  statusChanges,
  userStatuses,
  users,
  workinghoursItems,
} from '../../db/schema';
import { taskClock } from '../../lib/clock';
import { buildAdmin, buildMember, buildObject } from '../authors/test-helpers';
import { type ExportDeps, processExports } from './exports';

// The fixture of the statistics tab export tests (stats-tab-exports, stats-feature-exports): background export of a statistics tab (kind `tab`, docs/statistics.md "Exports"): the job row, list,
// progress and mail of the raw exports, and a file holding the same figures the tab's endpoint answers
// with for the same period and filters. The space is in UTC+5 (Asia/Yekaterinburg); period Mon 16 ..
// Sun 22 Nov 2026 local.

export let t: TestApp;
let deps: ExportDeps;
async function start() {
  t = await createTestApp();
  deps = {
    db: t.deps.database.db,
    mailer: t.deps.mailer,
    bus: t.deps.bus,
    appUrl: t.deps.config.appUrl,
    dataDir: t.deps.config.dataDir,
    log: t.deps.log,
  };
}

export type Headers = Record<string, string>;
export const Z = (iso: string) => new Date(iso);
export const call = (headers: Headers, method: 'GET' | 'POST', url: string, body?: unknown) =>
  t.app.inject({ method, url: `/v1${url}`, headers, payload: body as Record<string, unknown> });

async function seed() {
  const db = t.deps.database.db;
  const admin = await buildAdmin(t);
  const spaceId = admin.space.id;
  await db.update(spaces).set({ timezone: 'Asia/Yekaterinburg' }).where(eq(spaces.id, spaceId));
  await db.update(users).set({ locale: 'en' }).where(eq(users.email, admin.email));
  const a1 = await buildObject(t, spaceId, { provider: 'sandbox' });
  const a2 = await buildObject(t, spaceId, { provider: 'vk' });
  const anna = await buildMember(t, spaceId, 'operator', { name: 'Anna' });
  const bob = await buildMember(t, spaceId, 'operator', { name: 'Bob' });
  let n = 0;
  const item = async (
    objectId: number,
    createdAt: string,
    extra: Partial<typeof items.$inferInsert> = {},
  ) => {
    n += 1;
    const [row] = await db
      .insert(items)
      .values({ spaceId, objectId, kind: 'comment', externalId: `t-${n}`, createdAt: Z(createdAt), ...extra })
      .returning();
    return row!;
  };
  // Three comments and a review in the period; one before it (never counted).
  await item(a1.id, '2026-11-15T18:00:00Z');
  const c1 = await item(a1.id, '2026-11-16T05:00:00Z', {
    sentiment: 'negative',
    emotion: 'anger',
    status: 'closed',
    closeReason: 'reply',
    firstReplyAt: Z('2026-11-16T05:10:00Z'),
    closedAt: Z('2026-11-16T05:10:00Z'),
  });
  await item(a1.id, '2026-11-16T05:10:00Z', {
    isOwn: true,
    userId: anna.user.id,
    parentId: c1.id,
    status: 'closed',
  });
  const c2 = await item(a2.id, '2026-11-18T10:00:00Z', {
    kind: 'review',
    rating: 2,
    sentiment: 'positive',
    status: 'closed',
    closeReason: 'reply',
    firstReplyAt: Z('2026-11-18T11:00:00Z'),
    closedAt: Z('2026-11-18T11:00:00Z'),
  });
  await item(a2.id, '2026-11-18T11:00:00Z', {
    isOwn: true,
    userId: bob.user.id,
    parentId: c2.id,
    status: 'closed',
  });
  await item(a1.id, '2026-11-20T07:00:00Z', { sentiment: 'neutral' });
  // What the team tables count: the members' recorded actions.
  const act = (
    userId: number,
    type: 'item.replied' | 'item.status',
    itemId: number,
    objectId: number,
    at: string,
    data: Record<string, unknown>,
  ) => ({
    spaceId,
    type,
    userId,
    causeKind: 'user' as const,
    causeId: userId,
    at: Z(at),
    data,
    itemId,
    objectId,
  });
  await db.insert(activity).values([
    act(anna.user.id, 'item.replied', c1.id, a1.id, '2026-11-16T05:10:00Z', { first: true }),
    act(anna.user.id, 'item.status', c1.id, a1.id, '2026-11-16T05:10:00Z', {
      from: 'new',
      to: 'closed',
      close_reason: 'reply',
    }),
    act(bob.user.id, 'item.replied', c2.id, a2.id, '2026-11-18T11:00:00Z', { first: true }),
    act(bob.user.id, 'item.status', c2.id, a2.id, '2026-11-18T11:00:00Z', {
      from: 'new',
      to: 'closed',
      close_reason: 'reply',
    }),
  ]);
  // Anna's user statuses and her working-hours slot (stats/statuses, stats/workinghours).
  const [online, away] = await db
    .select()
    .from(userStatuses)
    .where(eq(userStatuses.spaceId, spaceId))
    .orderBy(asc(userStatuses.position));
  await db.delete(statusChanges).where(eq(statusChanges.spaceId, spaceId));
  await db.insert(statusChanges).values([
    { spaceId, userId: anna.user.id, statusId: online!.id, source: 'manual', at: Z('2026-11-17T09:00:00Z') },
    { spaceId, userId: anna.user.id, statusId: away!.id, source: 'manual', at: Z('2026-11-17T17:00:00Z') },
  ]);
  await db.insert(workinghoursItems).values({
    spaceId,
    userId: anna.user.id,
    startedAt: Z('2026-11-17T09:00:00Z'),
    endedAt: Z('2026-11-17T17:00:00Z'),
    statusId: null,
  });
  return { admin, spaceId, a1, a2, anna, bob };
}

export let s: Awaited<ReturnType<typeof seed>>;

/**
 * The app and the seeded space of a test file (its own, made in the file's beforeAll): the bindings `t`
 * and `s` above are live, so the file reads them once its hooks have run.
 */
export function useTabExportFixture() {
  beforeAll(async () => {
    await start();
    s = await seed();
  });
  afterAll(async () => {
    await t.close();
  });
}

export const period = { from: '2026-11-16', to: '2026-11-22' };

export async function exported(body: Record<string, unknown>, headers: Headers = s.admin.headers) {
  const res = await call(headers, 'POST', '/stats/exports', {
    space_id: s.spaceId,
    ...period,
    ...body,
  });
  expect(res.statusCode, res.body).toBe(200);
  const started = res.json() as ExportWire;
  expect(started).toMatchObject({ status: 'queued', kind: 'tab', tab: body.tab });
  await processExports(deps, () => taskClock.now(), [s.spaceId]);
  const list = (await call(headers, 'GET', `/stats/exports?space_id=${s.spaceId}`)).json() as ExportsListWire;
  const wire = list.items.find((e) => e.id === started.id)!;
  expect(wire.status, wire.error ?? '').toBe('done');
  const file = await call(headers, 'GET', `/stats/exports/${wire.id}/file`);
  expect(file.statusCode).toBe(200);
  return { wire, file };
}

/** The CSV's lines as cells (quoted cells unquoted; none of these figures holds a line break). */
export const csvRows = (body: string) =>
  body
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .map((line) =>
      [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)]
        .slice(0, -1)
        .map((m) => m[1]!.replace(/^"|"$/g, '').replaceAll('""', '"')),
    );

export async function sheetsOf(content: Buffer) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(content as unknown as ArrayBuffer);
  return book.worksheets.map((ws) => {
    const rows: unknown[][] = [];
    ws.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    return { name: ws.name, rows };
  });
}
