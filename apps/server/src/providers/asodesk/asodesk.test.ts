import { describe, expect, it } from 'vitest';
import { AsodeskEmulator } from '../../../emulators/asodesk/emulator';
import { storeTestbed, until } from '../../../test/store-testbed';

// Asodesk against its emulator over real HTTP (issue 20): connecting RuStore reviews relayed by Asodesk
// with an API token and the app's id (a bad token, and an app the token sees in another store, refused),
// reviews by interval polling across pages with a cursor, edits updating the item, replies (RuStore through
// Asodesk: 10000 characters) through the outbox with a 429, and a revoked token as the account's error.

let emu: AsodeskEmulator;
const w = storeTestbed(
  'asodesk_rustore',
  () => AsodeskEmulator.start(),
  (started) => {
    emu = started;
  },
);

let seq = 0;
function newApp(store = 'rustore') {
  seq += 1;
  const appId = `ru.example.aso${seq}`;
  return { appId, token: emu.addToken([{ appId, store }]) };
}

describe('connecting', () => {
  it('refuses a bad token and an app in another store, with a clear message; stores nothing', async () => {
    const app = newApp();
    const play = newApp('googleplay');
    await w.expectRefused([
      [{ api_token: 'wrong', app_id: app.appId }, /Asodesk.*(отозван|revoked)/i],
      [{ api_token: play.token, app_id: play.appId }, /Приложение не найдено/],
    ]);
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
    const app = newApp();
    const row = await w.connectAlone({ api_token: app.token, app_id: app.appId });
    await w.expectPollInterval('aso-node-1', 600); // ASODESK_POLL_S

    const review = emu.review(app.appId, { text: 'Не приходят уведомления', rating: 2 });
    await w.roundThrough429(15, (s) => emu.rateLimitNext(s));
    const id = String(review.id);
    const item = await until(() => w.item(row.id, id));
    expect(item).toMatchObject({ text: 'Не приходят уведомления', rating: 2 });
    // The round stores the item, then writes its cursor: wait for the cursor (it is the review's time).
    await w.untilCursor(row.id, review.updatedAt);

    await w.restartPolling('aso-node-2');
    expect(await w.copiesOf(row.id, id)).toHaveLength(1);

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
    expect(await w.copiesOf(row.id, `${id}:reply`)).toHaveLength(1);
  });

  it('a revoked token becomes the account error', async () => {
    const app = newApp();
    const row = await w.connectAlone({ api_token: app.token, app_id: app.appId });
    emu.revoke(app.token);
    await w.expectAccountError(row.id, 'aso-node-revoked', 'Given token not valid for any token type');
  });
});
