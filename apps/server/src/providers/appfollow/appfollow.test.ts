import { describe, expect, it } from 'vitest';
import { AppFollowEmulator } from '../../../emulators/appfollow/emulator';
import { storeTestbed, until } from '../../../test/store-testbed';
import { createAppFollowConnector } from './connector';

// AppFollow against its emulator over real HTTP (issue 20): connecting with an API token and the app's
// store id (a bad token and an app in another store refused), reviews by interval polling across pages with
// a cursor, edits updating the item, replies (Google Play's 350 characters) through the outbox with a 429,
// and a revoked token as the account's error.

let emu: AppFollowEmulator;
const w = storeTestbed(
  'af_googleplay',
  () => AppFollowEmulator.start(),
  (started) => {
    emu = started;
  },
);

let seq = 0;
function newApp(store = 'gp') {
  seq += 1;
  const extId = `com.example.af${seq}`;
  return { extId, token: emu.addToken([{ appId: extId, store }]) };
}

describe('connecting', () => {
  it('refuses a bad token, an unknown app and an app in another store, with a clear message; stores nothing', async () => {
    const app = newApp();
    const ios = newApp('as');
    await w.expectRefused([
      [{ api_token: 'wrong', ext_id: app.extId }, /AppFollow.*(отозван|revoked)/i],
      [{ api_token: app.token, ext_id: 'com.unknown' }, /App not found/],
      [{ api_token: ios.token, ext_id: ios.extId }, /AppFollow.*(другого магазина|another store).*as/i],
    ]);
  });

  it('sends the token header, imports the reviews across pages, with a reply already in the store', async () => {
    const app = newApp();
    const reviews = [1, 2, 3].map((n) =>
      emu.review(app.extId, { text: `Отзыв ${n}`, rating: n, title: 'Заголовок' }),
    );
    emu.answer(reviews[0]!, 'Спасибо за отзыв');
    const row = await w.connectOk({ api_token: app.token, ext_id: app.extId });
    expect(row).toMatchObject({ provider: 'af_googleplay', externalId: app.extId, updatesMode: 'polling' });
    const lists = emu.calls.filter((c) => c.path === '/api/v2/reviews' && c.query.ext_id === app.extId);
    expect(lists.at(-1)!.headers['x-appfollow-api-token']).toBe(app.token);
    expect(lists.map((c) => c.query.page)).toContain('2');
    const stored = await w.itemsOf(row.id);
    expect(stored.filter((i) => i.kind === 'review').map((i) => [i.externalId, i.text, i.rating])).toEqual(
      reviews.map((r, n) => [String(r.id), `Заголовок\nОтзыв ${n + 1}`, n + 1]),
    );
    const answer = stored.find((i) => i.externalId === `${reviews[0]!.id}:reply`);
    expect(answer).toMatchObject({ kind: 'comment', isOwn: true, text: 'Спасибо за отзыв' });
    expect(answer!.parentId).toBe(stored.find((i) => i.externalId === String(reviews[0]!.id))!.id);
  });
});

describe('the af_* ids name the store the app is in', () => {
  it('accepts an App Store app under af_itunes and any other store under af_xstore; refuses Google Play under af_huawei', async () => {
    const ctx = { config: w.t.deps.config, fetch, now: () => new Date() };
    const verify = (id: 'af_itunes' | 'af_huawei' | 'af_xstore', app: ReturnType<typeof newApp>) =>
      createAppFollowConnector(id).verifyCredentials!(ctx, { api_token: app.token, ext_id: app.extId });
    const ios = newApp('as');
    expect(await verify('af_itunes', ios)).toMatchObject({
      externalId: ios.extId,
      url: `https://apps.apple.com/app/id${ios.extId}`,
    });
    const other = newApp('amazon');
    expect(await verify('af_xstore', other)).toMatchObject({ externalId: other.extId });
    await expect(verify('af_xstore', ios)).rejects.toMatchObject({ reason: { key: 'failure.wrongStore' } });
    await expect(verify('af_huawei', newApp('gp'))).rejects.toMatchObject({
      reason: { key: 'failure.wrongStore', params: { store: 'gp' } },
    });
  });
});

describe('polling, edits, replies', () => {
  it('polls on its interval with a cursor, survives a restart, updates an edited review, replies after a 429', async () => {
    const app = newApp();
    const row = await w.connectAlone({ api_token: app.token, ext_id: app.extId });
    await w.expectPollInterval('af-node-1', 600); // APPFOLLOW_POLL_S

    const review = emu.review(app.extId, { text: 'Вылетает при входе', rating: 1 });
    await w.roundThrough429(20, (s) => emu.rateLimitNext(s));
    const id = String(review.id);
    const item = await until(() => w.item(row.id, id));
    expect(item).toMatchObject({ text: 'Вылетает при входе', rating: 1 });
    // The round stores the item, then writes its cursor: wait for the cursor (it is the review's time).
    await w.untilCursor(row.id, Math.floor(review.updatedAt / 1000) * 1000);

    await w.restartPolling('af-node-2');
    expect(await w.copiesOf(row.id, id)).toHaveLength(1);

    emu.review(app.extId, { id: review.id, text: 'Починили, спасибо', rating: 5 });
    w.release();
    await until(async () => (await w.item(row.id, id))?.rating === 5);
    expect(await w.item(row.id, id)).toMatchObject({ id: item.id, text: 'Починили, спасибо' });
    await w.stopPolling();

    expect((await w.reply(item.id, 'я'.repeat(351))).statusCode).toBe(400);
    await w.replyThrough429(item.id, 'Рады, что всё работает!', (s) => emu.rateLimitNext(s));
    expect(emu.replyCalls().at(-1)!.body).toEqual({
      ext_id: app.extId,
      review_id: id,
      answer_text: 'Рады, что всё работает!',
    });
    const reply = (await w.item(row.id, `${id}:reply`))!;
    expect(reply).toMatchObject({ isOwn: true, delivery: 'sent', text: 'Рады, что всё работает!' });

    // The next round sees the reply in the store: the same item, not a second one.
    await w.pollOneRound('af-node-3');
    expect(await w.copiesOf(row.id, `${id}:reply`)).toHaveLength(1);
  });

  it('a revoked token becomes the account error', async () => {
    const app = newApp();
    const row = await w.connectAlone({ api_token: app.token, ext_id: app.extId });
    emu.revoke(app.token);
    await w.expectAccountError(row.id, 'af-node-revoked', 'Invalid or revoked API token');
  });
});
