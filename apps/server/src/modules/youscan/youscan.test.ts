import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startYouscanEmulator, type YouscanEmulator } from '../../../emulators/youscan/emulator';
import { createTestApp, type TestApp } from '../../../test/harness';
import { openSocket } from '../../../test/socket';
import { spaces, youscanMentions, youscanTopics } from '../../db/schema';
import { YouscanImportJob } from '../../jobs/youscan-import';
import { buildAdmin } from '../authors/test-helpers';
import { importAll } from './service';

// YouScan (issue 21) against the emulator on loopback and a real database: connecting checks the key,
// mentions are imported once however often the job runs, the cursor moves, the counter and socket follow.

let t: TestApp;
let ys: YouscanEmulator;
let wsBase: string;
beforeAll(async () => {
  ys = await startYouscanEmulator();
  t = await createTestApp({ YOUSCAN_API_URL: ys.url });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsBase = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 240_000);
afterAll(async () => {
  await ys?.close();
  await t?.close();
});

type Headers = Record<string, string>;
const ON = { youscan: true, monitoring_count: 1 };
const db = () => t.deps.database.db;
const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

async function call(
  headers: Headers,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) {
  return t.app.inject({ method, url, headers, payload: payload as Record<string, unknown> | undefined });
}
async function counter(headers: Headers) {
  const res = await call(headers, 'GET', '/v1/counts?monitoring=1');
  return (res.json() as { monitoring_count: number }).monitoring_count;
}
async function mentionsOf(headers: Headers, id: number) {
  const res = await call(headers, 'GET', `/v1/youscan/${id}/mentions`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    items: Array<{ id: number; external_id: string; text: string; sentiment: string | null }>;
  };
}

describe('YouScan', { timeout: 120_000 }, () => {
  it('imports a topic once: no duplicates across runs, the cursor moves, counter and socket follow', async () => {
    const admin = await buildAdmin(t, ON);
    const topic = `t${admin.space.id}`;
    ys.add(topic, {
      id: 'm1',
      text: 'Курьер опоздал на два часа',
      published: ago(120),
      sentiment: 'negative',
    });
    ys.add(topic, { id: 'm2', text: 'Great delivery', published: ago(60), sentiment: 'Positive' });
    ys.add(topic, { id: 'old', text: 'Too old to import', published: ago(60 * 24 * 30) });

    const created = await call(admin.headers, 'POST', '/v1/youscan', {
      space_id: admin.space.id,
      name: 'Бренд',
      topic_id: topic,
      api_key: ys.apiKey,
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.body).not.toContain(ys.apiKey);
    const presented = created.json() as { id: number; status: string; total: number; unread: number };
    expect(presented).toMatchObject({ status: 'ok', total: 2, unread: 2, has_api_key: true });
    const [row] = await db().select().from(youscanTopics).where(eq(youscanTopics.id, presented.id));
    expect(row!.apiKeySealed).not.toContain(ys.apiKey);
    expect(row!.cursor?.toISOString()).toBe(ys.topics.get(topic)![1]!.published);

    const first = await mentionsOf(admin.headers, presented.id);
    expect(first.items.map((m) => [m.external_id, m.sentiment])).toEqual([
      ['m2', 'positive'],
      ['m1', 'negative'],
    ]);
    expect(await counter(admin.headers)).toBe(2);

    // The job runs twice with one new mention in between: it lands once, the old ones are not repeated.
    const socket = await openSocket(`${wsBase}/v1/ws?access_token=${admin.headers.authorization!.slice(7)}`);
    const job = new YouscanImportJob({
      db: db(),
      bus: t.deps.bus,
      sealer: t.deps.sealer,
      log: t.deps.log,
      baseUrl: ys.url,
    });
    try {
      ys.add(topic, { id: 'm3', text: 'Where is my parcel?', published: ago(1) });
      await job.tick();
      const pushed = await socket.waitFor((m) => m.type === 'youscan' && (m.imported as number) > 0);
      expect(pushed).toMatchObject({ space_id: admin.space.id, topic_ids: [presented.id], imported: 1 });
      expect(JSON.stringify(pushed)).not.toContain('parcel');
      await job.tick();
    } finally {
      socket.close();
    }
    const rows = await db().select().from(youscanMentions).where(eq(youscanMentions.topicRef, presented.id));
    expect(rows.map((r) => r.externalId).sort()).toEqual(['m1', 'm2', 'm3']);
    // The later runs asked from the cursor on, not from a week back.
    const last = ys.requests.at(-1)!;
    expect(new Date(last.get('from')!).getTime()).toBeGreaterThan(Date.now() - 5 * 60_000);

    const manual = await call(admin.headers, 'POST', `/v1/youscan/${presented.id}/import`);
    expect(manual.statusCode, manual.body).toBe(200);
    expect(manual.json()).toMatchObject({ imported: 0, topic: { total: 3, unread: 3 } });
    expect(await counter(admin.headers)).toBe(3);

    const read = await call(admin.headers, 'POST', `/v1/youscan/${presented.id}/read`, {});
    expect(read.json()).toEqual({ updated: 3 });
    expect(await counter(admin.headers)).toBe(0);
  });

  it('a wrong key is a clear error in the user’s language and connects nothing; a later bad key shows on the topic', async () => {
    const admin = await buildAdmin(t, ON);
    const topic = `t${admin.space.id}`;
    ys.add(topic, { id: 'x1', text: 'hello' });
    const refused = await t.app.inject({
      method: 'POST',
      url: '/v1/youscan',
      headers: { ...admin.headers, 'accept-language': 'ru' },
      payload: { space_id: admin.space.id, name: 'Тема', topic_id: topic, api_key: 'wrong-key' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'YouScan не принял ключ API' });
    expect(refused.body).not.toContain('wrong-key');
    const listed = await call(admin.headers, 'GET', '/v1/youscan');
    expect((listed.json() as { items: unknown[] }).items).toEqual([]);

    const unknownTopic = await call(admin.headers, 'POST', '/v1/youscan', {
      space_id: admin.space.id,
      name: 'Тема',
      topic_id: 'nope',
      api_key: ys.apiKey,
    });
    expect(unknownTopic.statusCode).toBe(502);
    expect(unknownTopic.json()).toMatchObject({ error_type: 'youscan_topic' });

    const ok = await call(admin.headers, 'POST', '/v1/youscan', {
      space_id: admin.space.id,
      name: 'Тема',
      topic_id: topic,
      api_key: ys.apiKey,
    });
    const id = (ok.json() as { id: number }).id;
    const changed = await call(admin.headers, 'PUT', `/v1/youscan/${id}`, { api_key: 'revoked' });
    expect(changed.json()).toMatchObject({ status: null });
    const failed = await t.app.inject({
      method: 'POST',
      url: `/v1/youscan/${id}/import`,
      headers: { ...admin.headers, 'accept-language': 'en' },
    });
    expect(failed.statusCode).toBe(400);
    expect(failed.json()).toMatchObject({ error: 'YouScan не принял ключ API', error_type: 'youscan_auth' });
    const after = await call(admin.headers, 'GET', `/v1/youscan/${id}`);
    expect(after.json()).toMatchObject({ status: 'auth', total: 1 });
  });

  it('only the space’s members with YouScan on see a topic', async () => {
    const admin = await buildAdmin(t, ON);
    const other = await buildAdmin(t, ON);
    const off = await buildAdmin(t, { monitoring_count: 1, youscan: false });
    const topic = `t${admin.space.id}`;
    ys.add(topic, { id: 'p1', text: 'private' });
    const ok = await call(admin.headers, 'POST', '/v1/youscan', {
      space_id: admin.space.id,
      name: 'Тема',
      topic_id: topic,
      api_key: ys.apiKey,
    });
    const id = (ok.json() as { id: number }).id;
    expect((await call(other.headers, 'GET', `/v1/youscan/${id}`)).statusCode).toBe(404);
    expect((await call(other.headers, 'GET', `/v1/youscan/${id}/mentions`)).statusCode).toBe(404);
    expect(await counter(other.headers)).toBe(0);
    const refused = await call(off.headers, 'POST', '/v1/youscan', {
      space_id: off.space.id,
      name: 'Тема',
      topic_id: topic,
      api_key: ys.apiKey,
    });
    expect(refused.statusCode).toBe(403);
    const deleted = await call(admin.headers, 'DELETE', `/v1/youscan/${id}`);
    expect(deleted.statusCode).toBe(200);
    expect(await counter(admin.headers)).toBe(0);
  });

  it('the job skips a space whose YouScan was switched off', async () => {
    const admin = await buildAdmin(t, ON);
    const topic = `t${admin.space.id}`;
    ys.add(topic, { id: 'a1', text: 'first' });
    const ok = await call(admin.headers, 'POST', '/v1/youscan', {
      space_id: admin.space.id,
      name: 'Тема',
      topic_id: topic,
      api_key: ys.apiKey,
    });
    const id = (ok.json() as { id: number }).id;
    await db()
      .update(spaces)
      .set({ settings: { ...ON, youscan: false } })
      .where(eq(spaces.id, admin.space.id));
    ys.add(topic, { id: 'a2', text: 'second' });
    await importAll(db(), t.deps.bus, t.deps.sealer, ys.url);
    const rows = await db().select().from(youscanMentions).where(eq(youscanMentions.topicRef, id));
    expect(rows.map((r) => r.externalId)).toEqual(['a1']);
    expect(await counter(admin.headers)).toBe(0);
  });
});
