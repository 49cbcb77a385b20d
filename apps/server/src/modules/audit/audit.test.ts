import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { buildComment, buildObject, fakeConnector } from '../../../test/inbox-actions';
import { auditLog, payments, spaces } from '../../db/schema';
import { createLogger } from '../../lib/logger';
import { registerConnector } from '../../providers/registry';
import { buildAdmin, buildMember } from '../authors/test-helpers';
import { settlePayment } from '../billing/service';
import { setSpaceTariff } from '../spaces/manage';
import { audit } from './record';
import { AuditRetentionJob } from './retention';

// The action log (issue 16) on the real database: each hooked service writes its entry with before →
// after, who and from which address; the log is read per space with filters and keyset pages, exported
// as CSV, and nobody — no route, no SQL of the application — can change or delete an entry, except the
// retention job for entries past the space's retention.

let t: TestApp;
let undo: () => void;
beforeAll(async () => {
  t = await createTestApp();
  undo = registerConnector(fakeConnector('vk').connector);
});
afterAll(async () => {
  undo();
  await t.close();
});

const ON = { audit: true, labels: true, templates: true };
const IP = '203.0.113.7';
type Headers = Record<string, string>;
type Entry = {
  id: number;
  kind: string;
  actor_id: number | null;
  actor_name: string | null;
  actor_kind: string;
  ip: string | null;
  user_agent: string | null;
  target_type: string | null;
  target_id: string | null;
  target_label: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
};

/** A request from IP through the local reverse proxy (TRUST_PROXY loopback: inject comes from 127.0.0.1). */
async function call(headers: Headers, method: string, url: string, payload?: unknown) {
  const res = await t.app.inject({
    method: method as 'GET',
    url,
    headers: { ...headers, 'x-forwarded-for': IP, 'user-agent': 'AuditTest/1.0' },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.json();
}

async function entries(
  headers: Headers,
  query: string,
): Promise<{ items: Entry[]; next_cursor: string | null }> {
  const res = await t.app.inject({ url: `/v1/audit?${query}`, headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function latest(headers: Headers, spaceId: number, kind: string): Promise<Entry> {
  const page = await entries(headers, `space_id=${spaceId}&kind=${kind}&limit=1`);
  expect(page.items, kind).toHaveLength(1);
  return page.items[0]!;
}

describe('action log — each hooked service writes its entry', () => {
  it('space, users, tags, labels, templates, facts, accounts, moderation: who, before → after, IP', async () => {
    const admin = await buildAdmin(t, ON);
    const s = admin.space.id;
    const h = admin.headers;

    await call(h, 'PUT', `/v1/spaces/${s}`, { name: 'Отклик Журнал' });
    let e = await latest(h, s, 'space.renamed');
    expect(e).toMatchObject({
      actor_id: admin.user.id,
      actor_kind: 'user',
      ip: IP,
      user_agent: 'AuditTest/1.0',
    });
    expect(e.before).toEqual({ name: admin.space.name });
    expect(e.after).toEqual({ name: 'Отклик Журнал' });

    await call(h, 'PUT', `/v1/spaces/${s}/features`, { flags: { labels: false } });
    e = await latest(h, s, 'space.flag');
    expect([e.before, e.after]).toEqual([{ labels: true }, { labels: false }]);
    await call(h, 'PUT', `/v1/spaces/${s}/features`, { flags: { labels: true } });

    const tag = await call(h, 'POST', '/v1/tags', { space_id: s, name: 'Доставка' });
    await call(h, 'PUT', `/v1/tags/${tag.id}`, { name: 'Курьер' });
    e = await latest(h, s, 'tag.updated');
    expect([e.before, e.after, e.target_label]).toEqual([{ name: 'Доставка' }, { name: 'Курьер' }, 'Курьер']);
    await call(h, 'DELETE', `/v1/tags/${tag.id}`);
    expect((await latest(h, s, 'tag.deleted')).before).toMatchObject({ name: 'Курьер' });
    expect((await latest(h, s, 'tag.created')).after).toMatchObject({ name: 'Доставка' });

    const label = await call(h, 'POST', '/v1/labels', { space_id: s, name: 'VIP' });
    await call(h, 'PUT', `/v1/labels/${label.id}`, { name: 'VIP+' });
    expect((await latest(h, s, 'label.updated')).after).toEqual({ name: 'VIP+' });

    const tpl = await call(h, 'POST', '/v1/templates', {
      space_id: s,
      title: 'Спасибо',
      text: 'Спасибо!',
      folder: '',
      personal: false,
      variants: {},
      variables: [],
    });
    await call(h, 'PUT', `/v1/templates/${tpl.id}`, { text: 'Благодарим!' });
    e = await latest(h, s, 'template.updated');
    expect([e.before, e.after]).toEqual([{ text: 'Спасибо!' }, { text: 'Благодарим!' }]);
    await call(h, 'DELETE', `/v1/templates/${tpl.id}`);
    expect((await latest(h, s, 'template.deleted')).target_id).toBe(String(tpl.id));

    const fact = await call(h, 'POST', '/v1/facts', { space_id: s, name: 'Город', kind: 'text' });
    expect((await latest(h, s, 'fact.created')).after).toMatchObject({ name: 'Город', kind: 'text' });
    await call(h, 'DELETE', `/v1/facts/${fact.id}`);
    expect((await latest(h, s, 'fact.deleted')).before).toMatchObject({ name: 'Город' });

    const member = await buildMember(t, s, 'operator');
    await call(h, 'PUT', `/v1/users/${member.user.id}`, { space_id: s, role: 'moderator' });
    e = await latest(h, s, 'user.role');
    expect([e.before, e.after, e.target_id]).toEqual([
      { role: 'operator' },
      { role: 'moderator' },
      String(member.user.id),
    ]);
    await call(h, 'POST', '/v1/users', { space_id: s, email: 'newcomer@example.com', role: 'operator' });
    expect((await latest(h, s, 'user.invited')).after).toEqual({
      email: 'newcomer@example.com',
      role: 'operator',
    });
    await call(h, 'DELETE', `/v1/users/${member.user.id}?space_id=${s}`);
    expect((await latest(h, s, 'user.removed')).before).toEqual({ role: 'moderator' });

    const account = await buildObject(t, s, { provider: 'vk' });
    await call(h, 'PUT', `/v1/objects/${account.id}`, { name: 'Наша группа' });
    e = await latest(h, s, 'account.updated');
    expect([e.before?.name, e.after?.name]).toEqual([account.name, 'Наша группа']);

    // The sandbox network hides and deletes comments (catalogue); VK (a stand-in connector) bans authors.
    const sandbox = await buildObject(t, s);
    const comment = await buildComment(t, sandbox, { text: 'Плохой сервис' });
    await call(h, 'POST', `/v1/items/${comment.id}/hide`);
    e = await latest(h, s, 'item.hidden');
    expect(e).toMatchObject({ target_type: 'item', target_id: String(comment.id), ip: IP });
    expect([e.before, e.after]).toEqual([{ isHidden: false }, { isHidden: true }]);
    await call(h, 'POST', `/v1/items/${comment.id}/delete`);
    expect((await latest(h, s, 'item.deleted')).after).toMatchObject({ isDeleted: true });
    const vkComment = await buildComment(t, account, { text: 'Спам' });
    await call(h, 'POST', `/v1/authors/${vkComment.authorId}/block`, { duration: 'hour' });
    e = await latest(h, s, 'author.blocked');
    expect(e.after).toMatchObject({ blocked_forever: false, duration: 'hour' });

    await call(h, 'DELETE', `/v1/objects/${account.id}`);
    expect((await latest(h, s, 'account.removed')).before).toMatchObject({ name: 'Наша группа' });
  });

  it('billing: a settled payment and the tariff it moved to, by the system', async () => {
    const admin = await buildAdmin(t, ON);
    const s = admin.space.id;
    const [payment] = await t.deps.database.db
      .insert(payments)
      .values({
        spaceId: s,
        provider: 'yookassa',
        providerPaymentId: `p-${s}`,
        idempotenceKey: `k-${s}`,
        tariffId: 2,
        periodDays: 30,
        currency: 'RUB',
        amount: 1000,
        createdBy: admin.user.id,
      })
      .returning();
    const log = createLogger('silent');
    expect(
      await settlePayment(t.deps.database.db, log, 'yookassa', {
        providerPaymentId: `p-${s}`,
        state: 'succeeded',
      }),
    ).toBe('settled');
    const paid = await latest(admin.headers, s, 'billing.payment');
    expect(paid).toMatchObject({ actor_kind: 'system', actor_id: null, target_id: String(payment!.id) });
    expect([paid.before, paid.after]).toMatchObject([
      { state: 'pending' },
      { state: 'succeeded', amount: 1000 },
    ]);
    const tariff = await latest(admin.headers, s, 'billing.tariff');
    expect(tariff.after).toMatchObject({ is_trial: false });

    // The instance operator's CLI moves the tariff: recorded as the operator. The new tariff has no
    // `audit` feature, so the log screen goes with it — read the table itself.
    await setSpaceTariff(t.deps.database.db, s, 20);
    const rows = await t.deps.database.db.execute(
      sql`SELECT actor_kind, kind FROM audit_log WHERE space_id = ${s} ORDER BY id DESC LIMIT 1`,
    );
    expect((rows as unknown as { rows: unknown[] }).rows[0]).toEqual({
      actor_kind: 'operator',
      kind: 'billing.tariff',
    });
  });
});

describe('action log — reading', () => {
  it('filters by user, kind or group, period and target; pages by keyset; other spaces get 403', async () => {
    const admin = await buildAdmin(t, ON);
    const s = admin.space.id;
    const h = admin.headers;
    const tags: number[] = [];
    for (let i = 0; i < 5; i++)
      tags.push((await call(h, 'POST', '/v1/tags', { space_id: s, name: `T${i}` })).id);
    await call(h, 'PUT', `/v1/spaces/${s}`, { name: 'Renamed' });
    const colleague = await buildMember(t, s, 'administrator');
    await call(colleague.headers, 'PUT', `/v1/tags/${tags[0]}`, { name: 'By colleague' });

    const byColleague = await entries(h, `space_id=${s}&user_id=${colleague.user.id}`);
    expect(byColleague.items.map((x) => x.kind)).toEqual(['tag.updated']);
    const tagGroup = await entries(h, `space_id=${s}&kind=tag`);
    expect(tagGroup.items).toHaveLength(6);
    const mixed = await entries(h, `space_id=${s}&kind=space.renamed,tag.updated`);
    expect(mixed.items.map((x) => x.kind)).toEqual(['tag.updated', 'space.renamed']);
    const target = await entries(h, `space_id=${s}&target_type=tag&target_id=${tags[0]}`);
    expect(target.items.map((x) => x.kind)).toEqual(['tag.updated', 'tag.created']);
    const future = Math.floor(Date.now() / 1000) + 3600;
    expect((await entries(h, `space_id=${s}&from=${future}`)).items).toEqual([]);
    expect((await entries(h, `space_id=${s}&to=${future}`)).items.length).toBe(7);

    // Keyset pages of 3: every entry once, newest first.
    const seen: number[] = [];
    let cursor: string | null = '';
    do {
      const page = await entries(h, `space_id=${s}&limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.items.map((x) => x.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(7);
    expect([...seen].sort((a, b) => b - a)).toEqual(seen);

    // Another space's administrator, an operator of this one, and a space with the flag off: 403.
    const stranger = await buildAdmin(t, ON);
    expect(
      (await t.app.inject({ url: `/v1/audit?space_id=${s}`, headers: stranger.headers })).statusCode,
    ).toBe(403);
    const operator = await buildMember(t, s, 'operator');
    expect(
      (await t.app.inject({ url: `/v1/audit?space_id=${s}`, headers: operator.headers })).statusCode,
    ).toBe(403);
    const off = await buildAdmin(t, { audit: false });
    expect(
      (await t.app.inject({ url: `/v1/audit?space_id=${off.space.id}`, headers: off.headers })).statusCode,
    ).toBe(403);
    // The stranger's own log holds nothing of this space.
    expect((await entries(stranger.headers, `space_id=${stranger.space.id}`)).items).toEqual([]);
  });

  it('exports the filtered log as CSV, formulas neutralised', async () => {
    const admin = await buildAdmin(t, ON);
    const s = admin.space.id;
    await call(admin.headers, 'POST', '/v1/tags', { space_id: s, name: '=HYPERLINK("x")' });
    await call(admin.headers, 'PUT', `/v1/spaces/${s}`, { name: 'CSV space' });
    const res = await t.app.inject({
      url: `/v1/audit/export.csv?space_id=${s}&kind=space`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe(
      'at,actor,actor_id,actor_kind,ip,user_agent,kind,target_type,target_id,target,changes,before,after',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('space.renamed');
    expect(lines[1]).toContain(`name: ${admin.space.name} → CSV space`);
    expect(lines[1]).toContain(IP);
    const all = await t.app.inject({ url: `/v1/audit/export.csv?space_id=${s}`, headers: admin.headers });
    expect(all.body).toContain(`"'=HYPERLINK(""x"")"`);
  });
});

describe('action log — append-only and retention', () => {
  it('no route changes or deletes an entry', async () => {
    const admin = await buildAdmin(t, ON);
    await call(admin.headers, 'PUT', `/v1/spaces/${admin.space.id}`, { name: 'Append only' });
    const { id } = await latest(admin.headers, admin.space.id, 'space.renamed');
    for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
      for (const url of [`/v1/audit/${id}`, `/v1/audit?space_id=${admin.space.id}`]) {
        const res = await t.app.inject({ method, url, headers: admin.headers, payload: {} });
        expect([404, 405], `${method} ${url}`).toContain(res.statusCode);
      }
    }
    // The published API: reads only, plus the retention setting.
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json() as { paths: Record<string, object> };
    const audited = Object.entries(doc.paths).filter(([p]) => p.includes('/audit'));
    expect(audited.map(([p]) => p).sort()).toEqual([
      '/v1/audit',
      '/v1/audit/export.csv',
      '/v1/audit/settings',
    ]);
    for (const [path, methods] of audited) {
      const verbs = Object.keys(methods);
      expect(
        verbs.filter((v) => v !== 'get' && !(path.endsWith('/settings') && v === 'put')),
        path,
      ).toEqual([]);
    }
  });

  it('the trigger refuses UPDATE, DELETE and TRUNCATE; deleting the space takes its log', async () => {
    const admin = await buildAdmin(t, ON);
    const s = admin.space.id;
    await call(admin.headers, 'PUT', `/v1/spaces/${s}`, { name: 'Guarded' });
    const db = t.deps.database.db;
    const refusal = (statement: ReturnType<typeof sql>) =>
      db.execute(statement).then(
        () => 'done',
        (error: Error & { cause?: Error }) => String(error.cause?.message ?? error.message),
      );
    expect(await refusal(sql`UPDATE audit_log SET kind = 'x' WHERE space_id = ${s}`)).toMatch(/append-only/);
    expect(await refusal(sql`DELETE FROM audit_log WHERE space_id = ${s}`)).toMatch(/append-only/);
    expect(await refusal(sql`TRUNCATE audit_log`)).toMatch(/append-only/);
    // The retention job's setting outside its transaction does not leak: a plain DELETE is still refused.
    expect(await refusal(sql`DELETE FROM audit_log WHERE id = -1 OR space_id = ${s}`)).toMatch(/append-only/);
    const count = async () =>
      Number(
        (
          (await db.execute(
            sql`SELECT count(*)::int AS n FROM audit_log WHERE space_id = ${s}`,
          )) as unknown as {
            rows: Array<{ n: number }>;
          }
        ).rows[0]!.n,
      );
    expect(await count()).toBe(1);
    await db.delete(spaces).where(sql`${spaces.id} = ${s}`);
    expect(await count()).toBe(0);
  });

  it('the retention job deletes only entries past each space’s retention', async () => {
    const db = t.deps.database.db;
    const a = await buildAdmin(t, ON);
    const b = await buildAdmin(t, ON);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/v1/audit/settings',
      headers: a.headers,
      payload: { space_id: a.space.id, days: 30 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const tooShort = await t.app.inject({
      method: 'PUT',
      url: '/v1/audit/settings',
      headers: a.headers,
      payload: { space_id: a.space.id, days: 5 },
    });
    expect(tooShort.statusCode).toBe(400);
    expect(
      (await t.app.inject({ url: `/v1/audit/settings?space_id=${a.space.id}`, headers: a.headers })).json(),
    ).toMatchObject({
      retention_days: 30,
    });
    const now = new Date();
    const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000);
    for (const space of [a.space.id, b.space.id]) {
      for (const [label, at] of [
        ['40 days', daysAgo(40)],
        ['10 days', daysAgo(10)],
        ['400 days', daysAgo(400)],
      ] as const) {
        await audit(
          db,
          { userId: null },
          { spaceId: space, kind: 'tag.created', target: { type: 'tag', id: 1, label }, at },
        );
      }
    }
    const job = new AuditRetentionJob({ db, log: createLogger('silent') });
    // Space A keeps 30 days: 40 and 400 go. Space B keeps the default 365: only 400 goes.
    expect(await job.prune(now)).toBeGreaterThanOrEqual(3);
    const labels = async (spaceId: number) =>
      (
        await entries(spaceId === a.space.id ? a.headers : b.headers, `space_id=${spaceId}&kind=tag.created`)
      ).items.map((x) => x.target_label);
    expect(await labels(a.space.id)).toEqual(['10 days']);
    expect(await labels(b.space.id)).toEqual(['10 days', '40 days']);
    // The clock moved a year on: B's entries pass 365 days too. The retention change itself is kept in A
    // until it ages out as well.
    await job.prune(new Date(now.getTime() + 400 * 86_400_000));
    expect(await labels(b.space.id)).toEqual([]);
    expect(await db.$count(auditLog, sql`${auditLog.spaceId} = ${a.space.id}`)).toBe(0);
  });
});
