import { describe, expect, it } from 'vitest';
import { GooglePlayEmulator } from '../../../emulators/googleplay/emulator';
import { storeTestbed, until } from '../../../test/store-testbed';

// Google Play against its emulator over real HTTP (issue 19, PROVIDERS.md §6a): connecting with a
// service-account key (JWT bearer grant), reviews of the last 7 days by interval polling, edits updating
// the item, replies (350 characters) through the outbox with 429, and a revoked key as the account's error.

let emu: GooglePlayEmulator;
const w = storeTestbed(
  'googleplay',
  () => GooglePlayEmulator.start(),
  (started) => {
    emu = started;
  },
);

let seq = 0;
function newApp() {
  seq += 1;
  const packageName = `com.example.app${seq}`;
  const key = emu.addServiceAccount([packageName]);
  return { packageName, ...key };
}

describe('connecting', () => {
  it('refuses what is not a service-account key, a broken key, a key without access; stores nothing', async () => {
    const app = newApp();
    await w.expectRefused([
      [
        { package_name: app.packageName, service_account_json: 'not json' },
        /service-account|сервисного аккаунта/,
      ],
      [
        { package_name: app.packageName, service_account_json: JSON.stringify({ type: 'authorized_user' }) },
        /service-account|сервисного аккаунта/,
      ],
      [
        {
          package_name: app.packageName,
          service_account_json: JSON.stringify({
            ...JSON.parse(app.json),
            private_key: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n',
          }),
        },
        /BEGIN/,
      ],
      [{ package_name: 'com.other.app', service_account_json: app.json }, /does not have permission/],
    ]);
    emu.revoke(app.email);
    await w.expectRefused([
      [{ package_name: app.packageName, service_account_json: app.json }, /Invalid grant/],
    ]);
  });

  it('signs a JWT the token endpoint accepts and imports the reviews of the last 7 days', async () => {
    const app = newApp();
    emu.review(app.packageName, {
      text: 'Старый отзыв',
      starRating: 3,
      modifiedAt: emu.clock - 8 * 86_400_000,
    });
    const fresh = emu.review(app.packageName, {
      text: 'Падает при запуске',
      starRating: 2,
      authorName: 'Иван',
    });
    const row = await w.connectOk({ package_name: app.packageName, service_account_json: app.json });
    expect(row).toMatchObject({
      provider: 'googleplay',
      externalId: app.packageName,
      updatesMode: 'polling',
    });
    const token = emu.calls.find((c) => c.path === '/token')!;
    expect(token.body).toMatchObject({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer' });
    const stored = await w.itemsOf(row.id);
    expect(stored.map((i) => [i.externalId, i.kind, i.text, i.rating])).toEqual([
      [fresh.reviewId, 'review', 'Падает при запуске', 2],
    ]);
  });
});

describe('polling, edits, replies', () => {
  it('polls on its interval, ingests once across restarts, updates an edited review, replies within 350 characters after a 429', async () => {
    const app = newApp();
    const row = await w.connectAlone({ package_name: app.packageName, service_account_json: app.json });
    await w.expectPollInterval('gp-node-1', 300); // GOOGLEPLAY_POLL_S

    const review = emu.review(app.packageName, { text: 'Нет тёмной темы', starRating: 3 });
    await w.roundThrough429(30, (s) => emu.rateLimitNext(s));
    const item = await until(() => w.item(row.id, review.reviewId));
    expect(item).toMatchObject({ text: 'Нет тёмной темы', rating: 3, kind: 'review' });
    expect(emu.calls.filter((c) => c.path.endsWith('/reviews')).at(-1)!.query).toMatchObject({
      maxResults: '100',
    });

    // A restart: another node takes over from the stored cursor; nothing is stored twice.
    await w.stopPolling();
    await w.startPolling('gp-node-2');
    await until(async () => (await w.account(row.id)).pollLeaseNode === 'gp-node-2');
    const waited = w.waits.length;
    await w.untilWaits(waited + 1);
    expect(await w.copiesOf(row.id, review.reviewId)).toHaveLength(1);

    // The user edits the review: the same item changes, text and stars.
    emu.review(app.packageName, {
      reviewId: review.reviewId,
      text: 'Тёмная тема есть, спасибо',
      starRating: 5,
    });
    w.release();
    await until(async () => (await w.item(row.id, review.reviewId))?.rating === 5);
    const edited = (await w.item(row.id, review.reviewId))!;
    expect(edited).toMatchObject({ id: item.id, text: 'Тёмная тема есть, спасибо' });
    expect(edited.editedAt).not.toBeNull();
    await w.stopPolling();

    // The reply limit comes from the shared table: 351 characters are refused before anything is queued.
    const tooLong = await w.reply(item.id, 'а'.repeat(351));
    expect(tooLong.statusCode).toBe(400);
    await w.replyThrough429(item.id, 'Спасибо за отзыв!', (s) => emu.rateLimitNext(s), { seconds: 45 });
    expect(emu.replies().at(-1)).toMatchObject({
      path: `/androidpublisher/v3/applications/${app.packageName}/reviews/${encodeURIComponent(review.reviewId)}:reply`,
      body: { replyText: 'Спасибо за отзыв!' },
    });
    const reply = (await w.item(row.id, `${review.reviewId}:reply`))!;
    expect(reply).toMatchObject({ isOwn: true, delivery: 'sent' });

    // The developer reply comes back in the next poll: still one reply.
    await w.startPolling('gp-node-3');
    await w.untilWaits(w.waits.length + 1);
    await w.stopPolling();
    expect((await w.itemsOf(row.id)).map((i) => i.externalId)).toEqual([
      review.reviewId,
      `${review.reviewId}:reply`,
    ]);
  });

  it('a revoked key becomes the account error; polling stops', async () => {
    const app = newApp();
    const row = await w.connectAlone({ package_name: app.packageName, service_account_json: app.json });
    emu.revoke(app.email);
    await w.expectAccountError(row.id, 'gp-node-revoked', 'Invalid grant');
  });
});
