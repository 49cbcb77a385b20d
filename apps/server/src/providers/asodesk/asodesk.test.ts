import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AsodeskEmulator } from '../../../emulators/asodesk/emulator';
import { StoreTestbed, until } from '../../../test/store-testbed';
import { objects } from '../../db/schema';

// Asodesk against its emulator over real HTTP (issue 20): connecting RuStore reviews relayed by Asodesk
// with an API token and the app's id (a bad token, and an app the token sees in another store, refused),
// reviews by interval polling across pages with a cursor, edits updating the item, replies (RuStore through
// Asodesk: 10000 characters) through the outbox with a 429, and a revoked token as the account's error.

let emu: AsodeskEmulator;
const w = new StoreTestbed('asodesk_rustore', () => emu.env);
beforeAll(async () => {
  emu = await AsodeskEmulator.start();
  await w.start();
});
afterAll(async () => {
  await w.close();
  await emu.close();
});

let seq = 0;
function newApp(store = 'rustore') {
  seq += 1;
  const appId = `ru.example.aso${seq}`;
  return { appId, token: emu.addToken([{ appId, store }]) };
}

describe('connecting', () => {
  it('refuses a bad token and an app in another store, with a clear message; stores nothing', async () => {
    const before = await w.db().select().from(objects).where(eq(objects.spaceId, w.spaceId));
    const app = newApp();
    const play = newApp('googleplay');
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ api_token: 'wrong', app_id: app.appId }, /Asodesk.*(отозван|revoked)/i],
      [{ api_token: play.token, app_id: play.appId }, /Приложение не найдено/],
    ];
    for (const [credentials, error] of cases) {
      const res = await w.connect(credentials);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatch(error);
    }
    expect(await w.db().select().from(objects).where(eq(objects.spaceId, w.spaceId))).toHaveLength(
      before.length,
    );
  });

  it('sends the token as Authorization: Token, names the store, imports the reviews across pages', async () => {
    const app = newApp();
    const reviews = [1, 2, 3].map((n) => emu.review(app.appId, { text: `Отзыв ${n}`, rating: n }));
    emu.answer(reviews[2]!, 'Спасибо!');
    const row = await w.connectOk({ api_token: app.token, app_id: app.appId });
    expect(row).toMatchObject({ provider: 'asodesk_rustore', externalId: app.appId, updatesMode: 'polling' });
    const lists = emu.calls.filter((c) => c.path === '/api/v1/reviews' && c.query.app_id === app.appId);
    expect(lists.at(-1)!.headers.authorization).toBe(`Token ${app.token}`);
    expect(lists.at(-1)!.query.store).toBe('rustore');
    expect(lists.map((c) => c.query.page)).toContain('2');
    const stored = await w.itemsOf(row.id);
    expect(stored.filter((i) => i.kind === 'review').map((i) => [i.externalId, i.text, i.rating])).toEqual(
      reviews.map((r, n) => [String(r.id), `Отзыв ${n + 1}`, n + 1]),
    );
    expect(stored.find((i) => i.externalId === `${reviews[2]!.id}:reply`)).toMatchObject({
      kind: 'comment',
      isOwn: true,
      text: 'Спасибо!',
    });
  });
});

describe('polling, edits, replies', () => {
  it('polls on its interval with a cursor, survives a restart, updates an edited review, replies after a 429', async () => {
    await w.newSpace();
    const app = newApp();
    const row = await w.connectOk({ api_token: app.token, app_id: app.appId });
    await w.startPolling('aso-node-1');
    await w.untilWaits(1);
    expect(w.waits[0]).toBeGreaterThanOrEqual(540_000); // ASODESK_POLL_S 600 s, ±10 %
    expect(w.waits[0]).toBeLessThanOrEqual(660_000);

    const review = emu.review(app.appId, { text: 'Не приходят уведомления', rating: 2 });
    emu.rateLimitNext(15);
    w.release();
    await w.untilWaits(2);
    expect(w.waits[1]).toBe(15_000);
    w.release();
    const id = String(review.id);
    const item = await until(() => w.item(row.id, id));
    expect(item).toMatchObject({ text: 'Не приходят уведомления', rating: 2 });
    // The round stores the item, then writes its cursor: wait for the cursor (it is the review's time).
    const cursor = review.updatedAt;
    await until(async () => Number((await w.account(row.id)).pollCursor) === cursor);

    await w.stopPolling();
    await w.startPolling('aso-node-2');
    await w.untilWaits(w.waits.length + 1);
    expect((await w.itemsOf(row.id)).filter((i) => i.externalId === id)).toHaveLength(1);

    emu.review(app.appId, { id: review.id, text: 'Теперь приходят', rating: 4 });
    w.release();
    await until(async () => (await w.item(row.id, id))?.rating === 4);
    expect(await w.item(row.id, id)).toMatchObject({ id: item.id, text: 'Теперь приходят' });
    await w.stopPolling();

    expect((await w.reply(item.id, 'я'.repeat(10_001))).statusCode).toBe(400);
    const long = 'Спасибо! '.repeat(100).trim(); // over RuStore's own 500: Asodesk's limit is larger
    await w.replyThrough429(item.id, long, (s) => emu.rateLimitNext(s));
    const call = emu.answerCalls().at(-1)!;
    expect(call.path).toBe(`/api/v1/reviews/${id}/answer`);
    expect(call.body).toEqual({ app_id: app.appId, store: 'rustore', text: long });
    expect(await w.item(row.id, `${id}:reply`)).toMatchObject({ isOwn: true, delivery: 'sent', text: long });

    await w.pollOneRound('aso-node-3');
    expect((await w.itemsOf(row.id)).filter((i) => i.externalId === `${id}:reply`)).toHaveLength(1);
  });

  it('a revoked token becomes the account error', async () => {
    await w.newSpace();
    const app = newApp();
    const row = await w.connectOk({ api_token: app.token, app_id: app.appId });
    emu.revoke(app.token);
    await w.expectAccountError(row.id, 'aso-node-revoked', 'Given token not valid for any token type');
  });
});
