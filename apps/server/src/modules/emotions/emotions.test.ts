import type { StatsEmotions } from '@otklik/shared';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { buildObject, buildWorkspace } from '../../../test/inbox-actions';
import { commentEvent, messageEvent } from '../../../test/inbox-helpers';
import { rulesWorkerOf } from '../../../test/rules-worker';
import { items, itemTags, messages, tags } from '../../db/schema';
import { buildMember, buildUserGroup } from '../authors/test-helpers';
import { ingest } from '../inbox/ingest/ingest';

// Emotions (issue 21) on the real database: the ingestion pipeline rates every incoming text, a space's
// own words and the off switch change that, the inbox filter and the rules condition read it, and
// stats/emotions counts it (checked against the rows, counted here independently).

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 240_000);
afterAll(() => t?.close());

const db = () => t.deps.database.db;
type Headers = Record<string, string>;

async function scene() {
  const admin = await buildWorkspace(t);
  const spaceId = admin.space.id;
  const object = await buildObject(t, spaceId);
  let n = 0;
  const arrive = async (text: string, extra: Record<string, unknown> = {}, on = object) => {
    n += 1;
    const result = await ingest({ db: db(), bus: t.deps.bus }, on, [
      commentEvent({ text, author: { externalId: `u-${spaceId}-${n}`, name: 'Покупатель' }, ...extra }),
    ]);
    return result.itemIds[0]!;
  };
  const item = async (id: number) => (await db().select().from(items).where(eq(items.id, id)))[0]!;
  return { admin, spaceId, object, arrive, item };
}

async function putSettings(headers: Headers, payload: Record<string, unknown>) {
  return t.app.inject({ method: 'PUT', url: '/v1/emotions/settings', headers, payload });
}

describe('emotions — ingestion', { timeout: 120_000 }, () => {
  it('rates an incoming negative comment, an angry one, a positive one and a message; our replies get none', async () => {
    const { object, arrive, item } = await scene();
    const bad = await arrive('Заказ опоздал на три дня, никто не предупредил');
    const angry = await arrive('Вы мошенники, верните мои деньги!');
    const good = await arrive('Спасибо большое, всё пришло быстро 👍');
    const question = await arrive('Когда будет доставка в Казань?');
    const own = await arrive('Разберёмся и вернёмся с ответом', { isOwn: true });
    expect(await item(bad)).toMatchObject({ sentiment: 'negative', emotion: null });
    expect(await item(angry)).toMatchObject({ sentiment: 'negative', emotion: 'anger' });
    expect(await item(good)).toMatchObject({ sentiment: 'positive', emotion: null });
    expect(await item(question)).toMatchObject({ sentiment: 'neutral', emotion: null });
    expect(await item(own)).toMatchObject({ sentiment: null, emotion: null });

    const result = await ingest({ db: db(), bus: t.deps.bus }, object, [
      messageEvent({ chatExternalId: `peer-${object.id}`, text: 'The app keeps crashing since the update' }),
    ]);
    const [message] = await db().select().from(messages).where(eq(messages.id, result.messageIds[0]!));
    expect(message).toMatchObject({ sentiment: 'negative' });

    // An edit is read again.
    await ingest({ db: db(), bus: t.deps.bus }, object, [
      {
        type: 'change',
        target: 'item',
        change: 'edited',
        externalId: (await item(bad)).externalId,
        text: 'Всё пришло, спасибо!',
      },
    ]);
    expect(await item(bad)).toMatchObject({ sentiment: 'positive' });
  });

  it("the space's own words change the result; switched off, texts arrive unrated", async () => {
    const { admin, spaceId, object, arrive, item } = await scene();
    // A batch of private messages reads the settings with its first statement (ingest-messages.ts).
    let chat = 0;
    const message = async (text: string) => {
      chat += 1;
      const result = await ingest({ db: db(), bus: t.deps.bus }, object, [
        messageEvent({ chatExternalId: `words-${object.id}-${chat}`, text }),
      ]);
      return (await db().select().from(messages).where(eq(messages.id, result.messageIds[0]!)))[0]!;
    };
    expect(await message('Жесть, а не доска')).toMatchObject({ sentiment: 'negative' });
    const before = await arrive('Жесть, а не доска');
    expect((await item(before)).sentiment).toBe('negative');

    const saved = await putSettings(admin.headers, {
      space_id: spaceId,
      words: [{ word: 'Жесть', sentiment: 'positive' }],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({
      space_id: spaceId,
      enabled: true,
      words: [{ word: 'Жесть', sentiment: 'positive' }],
    });
    const after = await arrive('Жесть, а не доска');
    expect((await item(after)).sentiment).toBe('positive');
    expect(await message('Жесть, а не доска')).toMatchObject({ sentiment: 'positive' });
    // The earlier one keeps its rating.
    expect((await item(before)).sentiment).toBe('negative');

    expect((await putSettings(admin.headers, { space_id: spaceId, enabled: false })).statusCode).toBe(200);
    const off = await arrive('Ужасный сервис, больше не закажу');
    expect(await item(off)).toMatchObject({ sentiment: null, emotion: null });
    expect(await message('Ужасный сервис, больше не закажу')).toMatchObject({
      sentiment: null,
      emotion: null,
    });
    const read = await t.app.inject({
      method: 'GET',
      url: `/v1/emotions/settings?space_id=${spaceId}`,
      headers: admin.headers,
    });
    expect(read.json()).toMatchObject({ enabled: false, words: [{ word: 'Жесть' }] });
  });

  it('validates words in the caller’s language and is for administrators only', async () => {
    const { admin, spaceId } = await scene();
    const twice = await putSettings(admin.headers, {
      space_id: spaceId,
      words: [
        { word: 'огонь', sentiment: 'positive' },
        { word: 'Огонь', sentiment: 'negative' },
        { word: 'две фразы', sentiment: 'negative' },
      ],
    });
    expect(twice.statusCode).toBe(400);
    expect(Object.values(twice.json().fields as Record<string, string>).sort()).toEqual([
      'Одно слово: буквы, цифры или дефис',
      'Это слово уже есть в списке',
    ]);
    const operator = await buildMember(t, spaceId, 'operator');
    const refused = await t.app.inject({
      method: 'GET',
      url: `/v1/emotions/settings?space_id=${spaceId}`,
      headers: operator.headers,
    });
    expect(refused.statusCode).toBe(403);
    const stranger = await buildWorkspace(t);
    expect((await putSettings(stranger.headers, { space_id: spaceId, enabled: false })).statusCode).toBe(403);
  });
});

describe('emotions — filter, rules and stats', { timeout: 120_000 }, () => {
  it('the inbox filter finds negative and angry comments', async () => {
    const { admin, arrive } = await scene();
    const bad = await arrive('Приложение постоянно вылетает после обновления');
    const angry = await arrive('Это просто издевательство над клиентами!!!');
    const good = await arrive('Отличный сервис, буду заказывать ещё');
    const list = async (query: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/v1/items?${query}`, headers: admin.headers });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().items as Array<{ id: number; sentiment: string; emotion: string | null }>).map(
        (i) => i.id,
      );
    };
    expect((await list('sentiment=negative')).sort()).toEqual([bad, angry].sort());
    expect(await list('sentiment=anger')).toEqual([angry]);
    expect((await list('sentiment=positive&sentiment=anger')).sort()).toEqual([angry, good].sort());
    const all = await t.app.inject({ method: 'GET', url: '/v1/items', headers: admin.headers });
    expect(all.json().items.find((i: { id: number }) => i.id === angry)).toMatchObject({
      sentiment: 'negative',
      emotion: 'anger',
    });
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/v1/items?sentiment=sad',
      headers: admin.headers,
    });
    expect(wrong.statusCode).toBe(400);
  });

  it('the rules condition "emotion is negative" tags negative comments only', async () => {
    const { admin, spaceId, arrive } = await scene();
    const [tag] = await db().insert(tags).values({ spaceId, name: 'Негатив' }).returning();
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/rules',
      headers: admin.headers,
      payload: {
        space_id: spaceId,
        name: 'Негатив',
        trigger: 'item_created',
        minutes: null,
        paused: false,
        stop_processing: false,
        position: 0,
        conditions: { all: [{ type: 'sentiment', values: ['negative'] }] },
        actions: [{ type: 'tag', tag_ids: [tag!.id] }],
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const bad = await arrive('Курьер нахамил и бросил пакет');
    const good = await arrive('Курьер вежливый, всё супер');
    const worker = rulesWorkerOf(t, [spaceId]);
    expect(await worker.drain()).toBe(2);
    const tagged = await db()
      .select()
      .from(itemTags)
      .where(inArray(itemTags.itemId, [bad, good]));
    expect(tagged.map((r) => r.itemId)).toEqual([bad]);
  });

  it('stats/emotions counts by day, account, network and post, within the group’s accounts', async () => {
    const { admin, spaceId, object, arrive } = await scene();
    const second = await buildObject(t, spaceId);
    const day = (d: number) => new Date(Date.UTC(2026, 10, d, 9, 0));
    await arrive('Ужасный сервис, больше не закажу', { createdAt: day(10) });
    await arrive('Вы мошенники, верните деньги!', { createdAt: day(10) });
    await arrive('Спасибо, всё отлично', { createdAt: day(11) });
    await arrive('Когда привезут заказ?', {
      createdAt: day(11),
      post: { externalId: 'post-2', text: 'Second post' },
    });
    await arrive('Лучший магазин', { createdAt: day(11) }, second);
    await arrive('Наш ответ', { createdAt: day(11), isOwn: true });
    await ingest({ db: db(), bus: t.deps.bus }, second, [
      messageEvent({
        chatExternalId: `peer-e-${second.id}`,
        text: 'Terrible support, nobody answers',
        createdAt: day(12),
      }),
    ]);
    const query = `space_id=${spaceId}&from=2026-11-01&to=2026-11-30`;
    const res = await t.app.inject({ url: `/v1/stats/emotions?${query}`, headers: admin.headers });
    expect(res.statusCode, res.body).toBe(200);
    const stats = res.json() as StatsEmotions;

    // The same figures from the rows themselves.
    const itemRows = (await db().select().from(items).where(eq(items.spaceId, spaceId))).filter(
      (r) => !r.isOwn,
    );
    const messageRows = (await db().select().from(messages).where(eq(messages.spaceId, spaceId))).filter(
      (r) => !r.isOwn,
    );
    const texts = [...itemRows, ...messageRows];
    const count = (list: typeof texts) => ({
      negative: list.filter((r) => r.sentiment === 'negative').length,
      neutral: list.filter((r) => r.sentiment === 'neutral').length,
      positive: list.filter((r) => r.sentiment === 'positive').length,
      anger: list.filter((r) => r.emotion === 'anger').length,
    });
    expect(stats.totals).toEqual({ ...count(texts), unrated: 0 });
    expect(stats.totals).toEqual({ negative: 3, neutral: 1, positive: 2, anger: 1, unrated: 0 });
    const dayOf = (d: Date) => d.toISOString().slice(0, 10);
    expect(stats.days).toEqual(
      ['2026-11-10', '2026-11-11', '2026-11-12'].map((d) => ({
        day: d,
        ...count(texts.filter((r) => dayOf(r.createdAt) === d)),
      })),
    );
    const forObject = (id: number) =>
      count([...itemRows.filter((r) => r.objectId === id), ...(id === second.id ? messageRows : [])]);
    expect(stats.by_object).toEqual([
      { object_id: object.id, provider: object.provider, ...forObject(object.id) },
      { object_id: second.id, provider: second.provider, ...forObject(second.id) },
    ]);
    expect(stats.by_provider).toEqual([{ provider: object.provider, ...count(texts) }]);
    expect(stats.by_post.map((p) => [p.text, p.negative, p.neutral, p.positive])).toEqual([
      ['Our post', 2, 0, 1],
      ['Second post', 0, 1, 0],
      // The second account's post of the same network id is its own post.
      ['Our post', 0, 0, 1],
    ]);

    // A member limited to the second account sees its texts only.
    const group = await buildUserGroup(t, spaceId, [second.id]);
    const analyst = await buildMember(t, spaceId, 'analyst', { groupId: group.id });
    const limited = await t.app.inject({ url: `/v1/stats/emotions?${query}`, headers: analyst.headers });
    expect((limited.json() as StatsEmotions).totals).toEqual({ ...forObject(second.id), unrated: 0 });
    // Another space's caller gets nothing of this one.
    const stranger = await buildWorkspace(t);
    const refused = await t.app.inject({ url: `/v1/stats/emotions?${query}`, headers: stranger.headers });
    expect(refused.statusCode).toBe(403);
  });
});
