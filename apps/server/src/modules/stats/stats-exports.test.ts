import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { EXPORT_EVENT, type ExportsListWire, type ExportWire } from '@otklik/shared';
import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import {
  authors,
  chats,
  items,
  itemTags,
  mailOutbox,
  messages,
  spaces,
  statsExports,
  tags,
  users,
} from '../../db/schema';
import { taskClock } from '../../lib/clock';
import type { BusEvent } from '../../realtime/bus';
import { buildAdmin, buildMember, buildObject, buildUserGroup } from '../authors/test-helpers';
import { claimExport, type ExportDeps, exportsDir, processExports, runExport } from './exports';

// Background exports (issue 15 item 5) on a real database: rows of the period and the caller's space
// only, the user-group limit, CSV bytes exactly (expected text written out by hand below from the seeded
// rows), XLSX read back with exceljs, progress events, the creator-only download, expiry, mail.
// The space is in Asia/Yekaterinburg (UTC+5, no DST); the period is local Mon 16 .. Sun 22 Nov 2026 =
// [2026-11-15T19:00Z, 2026-11-22T19:00Z).

let t: TestApp;
let deps: ExportDeps;
const events: BusEvent[] = [];
beforeAll(async () => {
  t = await createTestApp();
  deps = {
    db: t.deps.database.db,
    mailer: t.deps.mailer,
    bus: t.deps.bus,
    appUrl: t.deps.config.appUrl,
    dataDir: t.deps.config.dataDir,
    log: t.deps.log,
  };
  t.deps.bus.subscribe((e) => {
    if (e.type === EXPORT_EVENT) events.push(e);
  });
});
afterAll(async () => {
  await t.close();
});
afterEach(() => taskClock.setOffset(0));

type Headers = Record<string, string>;
const Z = (iso: string) => new Date(iso);

async function call(headers: Headers, method: 'GET' | 'POST', url: string, body?: unknown) {
  return t.app.inject({ method, url: `/v1${url}`, headers, payload: body as Record<string, unknown> });
}

async function seed() {
  const db = t.deps.database.db;
  const admin = await buildAdmin(t);
  const spaceId = admin.space.id;
  await db.update(spaces).set({ timezone: 'Asia/Yekaterinburg' }).where(eq(spaces.id, spaceId));
  await db.update(users).set({ locale: 'en' }).where(eq(users.email, admin.email));
  const a1 = await buildObject(t, spaceId, { provider: 'sandbox' });
  const a2 = await buildObject(t, spaceId, { provider: 'sandbox' });
  const anna = await buildMember(t, spaceId, 'operator', { name: 'Anna' });
  const [tag] = await db.insert(tags).values({ spaceId, name: 'Delivery' }).returning();
  const [olga] = await db
    .insert(authors)
    .values({ spaceId, provider: 'sandbox', externalId: 'olga', name: 'Olga' })
    .returning();
  let n = 0;
  const item = async (objectId: number, createdAt: Date, extra: Partial<typeof items.$inferInsert>) => {
    n += 1;
    const [row] = await db
      .insert(items)
      .values({ spaceId, objectId, kind: 'comment', externalId: `x-${n}`, createdAt, ...extra })
      .returning();
    return row!;
  };
  // Before the period (local 23:59:59 Sun 15 Nov): never exported.
  await item(a1.id, Z('2026-11-15T18:59:59Z'), { text: 'too early' });
  // Mon 10:00 local: a formula-looking text with a quote and a comma, assigned to Anna, tagged.
  const i1 = await item(a1.id, Z('2026-11-16T05:00:00Z'), {
    authorId: olga!.id,
    text: '=1+2, "quoted"',
    assignedUserId: anna.user.id,
    url: 'https://example.test/1',
  });
  await db.insert(itemTags).values({ itemId: i1.id, tagId: tag!.id, spaceId });
  // Wed 15:00 local on the second account: a closed review with a rating and a line break.
  const i2 = await item(a2.id, Z('2026-11-18T10:00:00Z'), {
    kind: 'review',
    rating: 5,
    text: 'Good\nthanks',
    status: 'closed',
    closeReason: 'reply',
    firstReplyAt: Z('2026-11-18T10:10:00Z'),
    closedAt: Z('2026-11-18T10:10:00Z'),
  });
  // Our reply to i1 by Anna (Mon 10:05 local).
  const r1 = await item(a1.id, Z('2026-11-16T05:05:00Z'), {
    isOwn: true,
    userId: anna.user.id,
    parentId: i1.id,
    text: 'We will help',
    delivery: 'sent',
    status: 'closed',
  });
  // At local 00:00 Mon 23 Nov: after the period.
  await item(a1.id, Z('2026-11-22T19:00:00Z'), { text: 'too late' });
  const [chat] = await db
    .insert(chats)
    .values({
      spaceId,
      objectId: a1.id,
      externalId: 'chat-1',
      authorId: olga!.id,
      status: 'open',
      lastMessageAt: Z('2026-11-17T06:01:00Z'),
      lastMessageText: 'Thanks',
      createdAt: Z('2026-11-17T06:00:00Z'),
    })
    .returning();
  const [m1, m2] = await db
    .insert(messages)
    .values([
      { spaceId, chatId: chat!.id, isOwn: false, text: 'Hi', createdAt: Z('2026-11-17T06:00:00Z') },
      {
        spaceId,
        chatId: chat!.id,
        isOwn: true,
        userId: anna.user.id,
        text: 'Thanks',
        delivery: 'sent',
        createdAt: Z('2026-11-17T06:01:00Z'),
      },
    ])
    .returning();
  // Another space with its own item in the same period.
  const other = await buildAdmin(t);
  const o1 = await buildObject(t, other.space.id, { provider: 'sandbox' });
  await db.insert(items).values({
    spaceId: other.space.id,
    objectId: o1.id,
    kind: 'comment',
    externalId: 'o-1',
    createdAt: Z('2026-11-17T00:00:00Z'),
  });
  return { admin, spaceId, a1, a2, anna, i1, i2, r1, chat: chat!, m1: m1!, m2: m2!, other };
}

let s: Awaited<ReturnType<typeof seed>>;
beforeAll(async () => {
  s = await seed();
});

const input = (extra: Record<string, unknown> = {}) => ({
  space_id: s.spaceId,
  kind: 'items',
  format: 'csv',
  from: '2026-11-16',
  to: '2026-11-22',
  ...extra,
});

/** Starts an export as `headers`, runs the job for this space, and returns the finished export. */
async function exported(headers: Headers, body: Record<string, unknown>) {
  const res = await call(headers, 'POST', '/stats/exports', body);
  expect(res.statusCode, res.body).toBe(200);
  const started = res.json() as ExportWire;
  expect(started.status).toBe('queued');
  await processExports(deps, () => taskClock.now(), [s.spaceId]);
  const list = await call(headers, 'GET', `/stats/exports?space_id=${s.spaceId}`);
  const wire = (list.json() as ExportsListWire).items.find((e) => e.id === started.id)!;
  expect(wire.status, wire.error ?? '').toBe('done');
  return wire;
}

async function fileOf(headers: Headers, id: number) {
  const res = await call(headers, 'GET', `/stats/exports/${id}/file`);
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

async function sheetsOf(content: Buffer) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(content as unknown as ArrayBuffer);
  return book.worksheets.map((ws) => {
    const rows: unknown[][] = [];
    ws.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    return { name: ws.name, rows };
  });
}

describe('stats exports', () => {
  it('exports the period’s items of the space as CSV, byte for byte, with progress and a mail', async () => {
    events.length = 0;
    const wire = await exported(s.admin.headers, input());
    expect(wire).toMatchObject({ rows_done: 2, rows_total: 2, format: 'csv', kind: 'items' });
    const res = await fileOf(s.admin.headers, wire.id);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="items-2026-11-16-2026-11-22.csv"');
    expect(Number(res.headers['content-length'])).toBe(wire.size);
    const a1 = s.a1.name;
    const a2 = s.a2.name;
    expect(res.body).toBe(
      '\ufeffID,Created,Network,Account,Kind,Status,Closed how,Author,Text,Rating,Link,Post ID,Assignee,Tags,First reply,Closed\r\n' +
        `${s.i1.id},2026-11-16 10:00:00,sandbox,${a1},comment,new,,Olga,"'=1+2, ""quoted""",,https://example.test/1,,Anna,Delivery,,\r\n` +
        `${s.i2.id},2026-11-18 15:00:00,sandbox,${a2},review,closed,reply,,"Good\nthanks",5,,,,,2026-11-18 15:10:00,2026-11-18 15:10:00\r\n`,
    );
    // Progress went to the creator only: counted, then done with every row.
    const mine = events.filter((e) => (e.payload.export as ExportWire).id === wire.id);
    expect(mine.every((e) => e.userIds?.length === 1 && e.spaceId === s.spaceId)).toBe(true);
    const states = mine.map((e) => (e.payload.export as ExportWire).status);
    expect(states[0]).toBe('queued');
    expect(states).toContain('running');
    expect(mine.at(-1)!.payload.export).toMatchObject({ status: 'done', rows_done: 2, rows_total: 2 });
    // The ready mail, in the user's language, links to stats/export.
    const mails = await t.deps.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, s.admin.email), eq(mailOutbox.kind, 'stats_export')));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('Your export is ready');
    expect(mails[0]!.text).toContain('2 rows');
    expect(mails[0]!.text).toContain(`/stats/export?space_id=${s.spaceId}`);
  });

  it('reports progress while it runs, batch by batch', async () => {
    const res = await call(s.admin.headers, 'POST', '/stats/exports', input({ kind: 'replies' }));
    const id = (res.json() as ExportWire).id;
    const row = await claimExport(deps.db, new Date(), [s.spaceId]);
    expect(row?.id).toBe(id);
    expect(row?.status).toBe('running');
    // Claimed: nobody else takes it while its lease lasts.
    expect(await claimExport(deps.db, new Date(), [s.spaceId])).toBeNull();
    const done = await runExport(deps, row!, () => new Date(), 1);
    expect(done).toMatchObject({ status: 'done', rowsDone: 1, rowsTotal: 1 });
    const file = await fileOf(s.admin.headers, id);
    expect(file.body).toBe(
      '\ufeffID,Created,Network,Account,Kind,Replied-to ID,Team member,Text,Delivery,Link\r\n' +
        `${s.r1.id},2026-11-16 10:05:00,sandbox,${s.a1.name},comment,${s.i1.id},Anna,We will help,sent,\r\n`,
    );
  });

  it('writes dialogs and messages as readable XLSX', async () => {
    const chatsFile = await exported(s.admin.headers, input({ kind: 'chats', format: 'xlsx' }));
    const res = await fileOf(s.admin.headers, chatsFile.id);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const [sheet] = await sheetsOf(res.rawPayload);
    expect(sheet!.name).toBe('Dialogs');
    expect(sheet!.rows).toEqual(
      [
        [
          'ID',
          'Created',
          'Last message',
          'Network',
          'Account',
          'Author',
          'Status',
          'Closed how',
          'Assignee',
          'Tags',
          'First reply',
          'Closed',
          'Last message text',
        ],
        [
          s.chat.id,
          '2026-11-17 11:00:00',
          '2026-11-17 11:01:00',
          'sandbox',
          s.a1.name,
          'Olga',
          'open',
          undefined,
          undefined,
          undefined,
          undefined,
          undefined,
          'Thanks',
        ].slice(0, 13),
      ].map((r) => trimEnd(r)),
    );
    const messagesFile = await exported(s.admin.headers, input({ kind: 'messages', format: 'xlsx' }));
    const [msgs] = await sheetsOf((await fileOf(s.admin.headers, messagesFile.id)).rawPayload);
    expect(msgs!.rows.slice(1)).toEqual([
      [
        s.m1.id,
        s.chat.id,
        '2026-11-17 11:00:00',
        'sandbox',
        s.a1.name,
        0,
        'Olga',
        undefined,
        'Hi',
        'received',
      ],
      [
        s.m2.id,
        s.chat.id,
        '2026-11-17 11:01:00',
        'sandbox',
        s.a1.name,
        1,
        undefined,
        'Anna',
        'Thanks',
        'sent',
      ],
    ]);
  });

  it('a member limited to a user group exports only their accounts’ rows; status narrows', async () => {
    const group = await buildUserGroup(t, s.spaceId, [s.a2.id]);
    const limited = await buildMember(t, s.spaceId, 'analyst', { name: 'Limited', groupId: group.id });
    const wire = await exported(limited.headers, input());
    expect(wire.rows_total).toBe(1);
    const body = (await fileOf(limited.headers, wire.id)).body;
    expect(body).toContain(`\r\n${s.i2.id},`);
    expect(body).not.toContain(`${s.i1.id},`);
    // Asking for an account outside the group still gives only the group's rows: nothing here.
    const outside = await exported(limited.headers, input({ object_id: [s.a1.id] }));
    expect(outside.rows_total).toBe(0);
    // The status filter: only the new ones of the whole space.
    const fresh = await exported(s.admin.headers, input({ status: ['new'] }));
    expect(fresh.rows_total).toBe(1);
  });

  it('only the creator downloads; others get 403/404; the file expires', async () => {
    const wire = await exported(s.admin.headers, input());
    // Another space's administrator: not found (nor may they start one in this space).
    expect((await call(s.other.headers, 'GET', `/stats/exports/${wire.id}/file`)).statusCode).toBe(404);
    expect((await call(s.other.headers, 'POST', '/stats/exports', input())).statusCode).toBe(403);
    // A colleague of the same space with export rights: someone else's export is not theirs.
    const analyst = await buildMember(t, s.spaceId, 'analyst', { name: 'Ann' });
    expect((await call(analyst.headers, 'GET', `/stats/exports/${wire.id}/file`)).statusCode).toBe(404);
    const theirs = (await call(analyst.headers, 'GET', `/stats/exports?space_id=${s.spaceId}`)).json();
    expect((theirs as ExportsListWire).items).toEqual([]);
    // An operator has no stats.export.
    expect((await call(s.anna.headers, 'POST', '/stats/exports', input())).statusCode).toBe(403);
    expect((await call(s.anna.headers, 'GET', `/stats/exports?space_id=${s.spaceId}`)).statusCode).toBe(403);
    // Eight days later the job deletes the file; the list says expired, the link answers 410.
    const [row] = await deps.db.select().from(statsExports).where(eq(statsExports.id, wire.id));
    const path = join(exportsDir(deps.dataDir), row!.file!);
    expect(existsSync(path)).toBe(true);
    taskClock.setOffset(8 * 86_400_000);
    await processExports(deps, () => taskClock.now(), [s.spaceId]);
    expect(existsSync(path)).toBe(false);
    const res = await call(s.admin.headers, 'GET', `/stats/exports/${wire.id}/file`);
    expect(res.statusCode).toBe(410);
    expect(res.json().error).toBe('The file has expired');
    const list = (await call(s.admin.headers, 'GET', `/stats/exports?space_id=${s.spaceId}`)).json();
    expect((list as ExportsListWire).items.find((e) => e.id === wire.id)?.status).toBe('expired');
  });

  it('is unavailable (SPEC §6) for a trial space with YouTube connected; at most 3 at a time', async () => {
    const trial = await buildAdmin(t);
    await t.deps.database.db.update(spaces).set({ isTrial: true }).where(eq(spaces.id, trial.space.id));
    await buildObject(t, trial.space.id, { provider: 'youtube' });
    const res = await call(trial.headers, 'POST', '/stats/exports', input({ space_id: trial.space.id }));
    expect(res.statusCode).toBe(403);
    const list = (await call(trial.headers, 'GET', `/stats/exports?space_id=${trial.space.id}`)).json();
    expect((list as ExportsListWire).available).toBe(false);
    for (let i = 0; i < 3; i++)
      expect((await call(s.admin.headers, 'POST', '/stats/exports', input())).statusCode).toBe(200);
    const fourth = await call(s.admin.headers, 'POST', '/stats/exports', input());
    expect(fourth.statusCode).toBe(400);
    await processExports(deps, () => taskClock.now(), [s.spaceId]);
  });
});

/** exceljs leaves trailing empty cells out of a row's values. */
function trimEnd(row: unknown[]) {
  const out = [...row];
  while (out.length && out.at(-1) === undefined) out.pop();
  return out;
}
