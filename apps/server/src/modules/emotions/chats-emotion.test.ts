import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { buildObject, buildWorkspace } from '../../../test/inbox-actions';
import { messageEvent } from '../../../test/inbox-helpers';
import { ingest } from '../inbox/ingest/ingest';

// A chat's emotion (issue 21, docs/product/emotions.md): the reading of its customer's latest message,
// kept on the chat by ingestion; our own replies do not change it. The chat list filters by it and shows
// it, and each message keeps its own reading.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 240_000);
afterAll(() => t?.close());

describe('emotions in chats', { timeout: 120_000 }, () => {
  it('filters chats by the emotion of the customer’s latest message; our replies leave it', async () => {
    const admin = await buildWorkspace(t);
    const object = await buildObject(t, admin.space.id);
    const write = async (peer: string, text: string, isOwn = false) => {
      const result = await ingest({ db: t.deps.database.db, bus: t.deps.bus }, object, [
        messageEvent({
          chatExternalId: `${peer}-${object.id}`,
          author: { externalId: `${peer}-${object.id}`, name: peer },
          text,
          isOwn,
        }),
      ]);
      return result;
    };
    // Calmed down: negative first, positive last → positive.
    await write('calm', 'Заказ опоздал на три дня, никто не предупредил');
    await write('calm', 'Всё пришло, спасибо большое!');
    // Angry, then our reply (ours are not rated) → still anger.
    await write('angry', 'Вы мошенники, верните мои деньги!');
    await write('angry', 'Разберёмся и вернёмся с ответом', true);
    await write('plain', 'Когда будет доставка в Казань?');

    const list = async (query: string) => {
      const res = await t.app.inject({
        url: `/v1/chats?object_id=${object.id}&${query}`,
        headers: admin.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().items as Array<{
        id: number;
        author: { name: string };
        sentiment: string | null;
        emotion: string | null;
      }>;
    };
    const names = async (query: string) => (await list(query)).map((c) => c.author.name).sort();
    expect(await names('sentiment=negative')).toEqual(['angry']);
    expect(await names('sentiment=anger')).toEqual(['angry']);
    expect(await names('sentiment=positive')).toEqual(['calm']);
    expect(await names('sentiment=positive&sentiment=neutral')).toEqual(['calm', 'plain']);
    const all = await list('');
    expect(all.find((c) => c.author.name === 'angry')).toMatchObject({
      sentiment: 'negative',
      emotion: 'anger',
    });
    expect(all.find((c) => c.author.name === 'plain')).toMatchObject({ sentiment: 'neutral', emotion: null });

    // Each incoming message keeps its own reading (the chat screen's badges); ours have none.
    const calm = all.find((c) => c.author.name === 'calm')!;
    const messages = await t.app.inject({ url: `/v1/chats/${calm.id}/messages`, headers: admin.headers });
    expect(
      (messages.json().items as Array<{ text: string; sentiment: string | null }>).map((m) => m.sentiment),
    ).toEqual(['negative', 'positive']);
    const angry = all.find((c) => c.author.name === 'angry')!;
    const angryMessages = await t.app.inject({
      url: `/v1/chats/${angry.id}/messages`,
      headers: admin.headers,
    });
    expect(
      (
        angryMessages.json().items as Array<{
          is_own: boolean;
          emotion: string | null;
          sentiment: string | null;
        }>
      ).map((m) => [m.is_own, m.sentiment, m.emotion]),
    ).toEqual([
      [false, 'negative', 'anger'],
      [true, null, null],
    ]);

    const wrong = await t.app.inject({ url: '/v1/chats?sentiment=sad', headers: admin.headers });
    expect(wrong.statusCode).toBe(400);
  });
});
