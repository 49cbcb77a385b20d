import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { GmapsEmulator } from '../../../emulators/gmaps/emulator';
import { emulatedTestbed } from '../../../test/providers/testbed';
import { objects } from '../../db/schema';

// Issue 19, Google Business Profile (`gmaps`, PROVIDERS §6c): Google OAuth connects every location the
// user manages; reviews with stars are polled by the one polling manager with change detection by
// updateTime (cursor kept across restarts); the owner's reply is written (429 once), rewritten and
// deleted; a revoked grant becomes the account's error.

const CLIENT_ID = 'otklik-gbp.apps.googleusercontent.com';
const CLIENT_SECRET = 'GOCSPX-gbp';
let emu: GmapsEmulator;

const bed = emulatedTestbed(
  async () => {
    emu = await GmapsEmulator.start();
    emu.google.addClient(CLIENT_ID, CLIENT_SECRET);
    return emu;
  },
  {
    provider: 'gmaps',
    eachSpace: true,
    env: (started) => ({
      ...started.env,
      GMAPS_CLIENT_ID: CLIENT_ID,
      GMAPS_CLIENT_SECRET: CLIENT_SECRET,
      PROVIDER_UPDATES: 'polling',
    }),
  },
);

/** The popup, checking the scope Google is asked for. */
const googlePopup = () =>
  bed.popup((url) =>
    expect(url.searchParams.get('scope')).toBe('https://www.googleapis.com/auth/business.manage'),
  );

async function connect(titles = ['Кофейня на Ленина']) {
  const owner = emu.addOwner('Владелец', titles);
  const old = emu.addReview(owner.locations[0]!.full, {
    text: 'Было вкусно',
    stars: 'FOUR',
    at: new Date(Date.now() - 86_400_000),
  });
  emu.google.consenting = owner.user;
  const res = await bed.finish(await googlePopup());
  expect(res.statusCode, res.body).toBe(200);
  return { owner, old, id: res.json().object.id as number, res: res.json() };
}

describe('Google Business Profile', () => {
  it('connect (every location) → import → poll → reply (429 once) → update → delete reply', async () => {
    const { owner, old, id, res } = await connect(['Кофейня на Ленина', 'Кофейня на Мира']);
    expect(res.object).toMatchObject({ provider: 'gmaps', name: 'Кофейня на Ленина', imported: 1 });
    expect(res.others).toHaveLength(1);
    expect(res.others[0]).toMatchObject({ provider: 'gmaps', name: 'Кофейня на Мира' });
    expect((await bed.row(id)).externalId).toBe(owner.locations[0]!.full);
    expect((await bed.item(id, old.reviewId))?.rating).toBe(4);

    const fresh = emu.addReview(owner.locations[0]!.full, {
      text: 'Долго ждали заказ',
      stars: 'TWO',
      name: 'Анна',
    });
    await bed.whilePolling(async (ticker) => {
      // Both locations are polled; each then waits GMAPS_POLL_S (600 s), jitter fixed at its middle.
      await ticker.untilWaits(2);
      expect(ticker.waits).toEqual([600_000, 600_000]);
      const review = (await bed.item(id, fresh.reviewId))!;
      expect(review).toMatchObject({ kind: 'review', text: 'Долго ждали заказ', rating: 2 });

      emu.failNext(429, 9);
      const reply = await bed.replyThrough429(review.id, 'Простите, исправимся', 10_000);
      const put = emu.apiCalls('PUT', `/reviews/${fresh.reviewId}/reply`);
      expect(put).toHaveLength(2);
      expect(put.at(-1)!.body).toEqual({ comment: 'Простите, исправимся' });
      expect(reply).toMatchObject({ delivery: 'sent', externalId: `${fresh.reviewId}:reply` });

      // The reply comes back with the review in the next round: still one item.
      await ticker.tick();
      expect(await bed.copiesOf(id, reply.externalId!)).toHaveLength(1);

      const edited = await bed.inject('PUT', `/v1/items/${reply.id}`, {
        text: 'Простите! Скидка 10% на следующий заказ',
      });
      expect(edited.statusCode, edited.body).toBe(200);
      await bed.drain();
      expect(emu.reviews.get(fresh.reviewId)?.reply?.comment).toBe('Простите! Скидка 10% на следующий заказ');

      // A review itself cannot be deleted; our reply can.
      const refused = await bed.inject('POST', `/v1/items/${review.id}/delete`);
      expect(refused.statusCode).toBe(400);
      const removed = await bed.inject('POST', `/v1/items/${reply.id}/delete`);
      expect(removed.statusCode, removed.body).toBe(200);
      await bed.drain();
      expect(emu.apiCalls('DELETE', `/reviews/${fresh.reviewId}/reply`)).toHaveLength(1);
      expect(emu.reviews.get(fresh.reviewId)?.reply).toBeNull();

      // The next round agrees the reply is gone; then the owner answers again in Google: it shows again.
      await ticker.tick();
      expect((await bed.item(id, `${fresh.reviewId}:reply`))?.isDeleted).toBe(true);
      const later = new Date(Date.now() + 5_000).toISOString();
      Object.assign(emu.reviews.get(fresh.reviewId)!, {
        reply: { comment: 'Ответ из Google', updateTime: later },
        updateTime: later,
      });
      await ticker.tick();
      expect(await bed.item(id, `${fresh.reviewId}:reply`)).toMatchObject({
        isDeleted: false,
        text: 'Ответ из Google',
      });
    });
  });

  it('restart: edits found by updateTime update the item; nothing missed or repeated', async () => {
    const { owner, old, id } = await connect(['Пекарня']);
    const location = owner.locations[0]!.full;
    const cursor = (await bed.pollRound(id)).pollCursor;
    expect(cursor).toBe(old.updateTime);

    // While no node polls: the old review is edited (stars and text), and 70 new ones (two pages).
    emu.editReview(old.reviewId, 'Стало хуже', 'ONE', new Date(Date.now() + 1_000));
    for (let i = 0; i < 70; i += 1)
      emu.addReview(location, {
        text: `bulk ${i}`,
        stars: 'FIVE',
        at: new Date(Date.now() + 2_000 + i * 1000),
      });

    emu.failNext(429, 30);
    await bed.whilePolling(async (ticker) => {
      await ticker.untilWaits(1);
      expect(ticker.waits[0]).toBe(30_000);
      await ticker.tick();
      // A crash before the cursor was saved: the same round again stores nothing twice.
      await bed.db().update(objects).set({ pollCursor: cursor }).where(eq(objects.id, id));
      await ticker.tick();
    }, 'another-gmaps-node');

    const stored = await bed.itemsOf(id);
    const ids = stored.map((i) => i.externalId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(stored.filter((i) => i.text.startsWith('bulk '))).toHaveLength(70);
    expect(stored.find((i) => i.externalId === old.reviewId)).toMatchObject({
      text: 'Стало хуже',
      rating: 1,
    });
  });

  it('a revoked grant becomes the account error and polling stops', async () => {
    const { owner, id } = await connect(['Отозванная']);
    emu.google.revoke(owner.user.id);
    const stored = await bed.pollUntilIdle(id);
    expect(stored.error).toContain('failure.accessRevoked');
    expect(stored.pollLeaseNode).toBe('paused');
  });

  it('a Google user without businesses gets a translated error; a refused consent too', async () => {
    const user = emu.google.addChannel('Без компаний');
    emu.google.consenting = user;
    const none = await bed.finish(await googlePopup());
    expect(none.statusCode).toBe(400);
    expect(none.json().error_type).toBe('no_locations');
    emu.google.consenting = null;
    const back = await googlePopup();
    expect(back.error).toBe('access_denied');
    expect((await bed.finish(back)).json().error_type).toBe('access_denied');
  });

  it('/callback/google is a callback address of Google Business Profile too', async () => {
    const owner = emu.addOwner('Через google', ['Салон']);
    emu.google.consenting = owner.user;
    const google = `${bed.t.deps.config.appUrl}/callback/google`;
    const start = await bed.inject('GET', `/v1/gmaps/auth/start?redirect_uri=${encodeURIComponent(google)}`);
    expect(start.statusCode, start.body).toBe(200);
    const answer = await fetch(start.json().url as string, { redirect: 'manual' });
    const back = Object.fromEntries(new URL(answer.headers.get('location')!).searchParams);
    const res = await bed.inject('POST', '/v1/gmaps/auth', { ...back, redirect_uri: google });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().object).toMatchObject({ provider: 'gmaps', name: 'Салон' });
    const elsewhere = `${bed.t.deps.config.appUrl}/callback/youtube`;
    const refused = await bed.inject(
      'GET',
      `/v1/gmaps/auth/start?redirect_uri=${encodeURIComponent(elsewhere)}`,
    );
    expect(refused.statusCode).toBe(400);
  });
});
