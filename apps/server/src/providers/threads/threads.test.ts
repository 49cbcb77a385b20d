import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ThreadsEmulator } from '../../../emulators/threads/emulator';
import { emulatedTestbed } from '../../../test/providers/testbed';
import { objects } from '../../db/schema';
import { openCredentials, sealCredentials } from '../context';

// Issue 19, Threads: a profile connects through the Threads authorization window (long-lived token
// kept), replies to its posts are polled by the one polling manager (cursor kept across restarts),
// answered (429 once, then delivered) and hidden; a revoked token becomes the account's error.

const APP_ID = '990602627938098';
const APP_SECRET = 'threads-secret';
let emu: ThreadsEmulator;

const bed = emulatedTestbed(
  async () => {
    emu = await ThreadsEmulator.start();
    emu.apps.set(APP_ID, APP_SECRET);
    return emu;
  },
  {
    provider: 'threads',
    eachSpace: true,
    env: (started) => ({
      ...started.env,
      THREADS_APP_ID: APP_ID,
      THREADS_APP_SECRET: APP_SECRET,
      PROVIDER_UPDATES: 'polling',
    }),
  },
);

async function connect(username: string) {
  const profile = emu.addProfile(username);
  const post = emu.addMedia({
    owner: profile,
    text: 'Новая коллекция',
    at: new Date(Date.now() - 7_200_000),
  });
  emu.addMedia({
    owner: profile,
    replyTo: post.id,
    username: 'old_fan',
    text: 'Старый ответ',
    at: new Date(Date.now() - 3_600_000),
  });
  emu.consenting = profile;
  const res = await bed.finish(await bed.popup());
  expect(res.statusCode, res.body).toBe(200);
  return { profile, post, id: res.json().object.id as number, object: res.json().object };
}

describe('Threads', () => {
  it('connect → import → poll → reply (429 once) → delivered → hide and show', async () => {
    const { profile, post, id, object } = await connect('masterskaya');
    expect(object).toMatchObject({ provider: 'threads', name: 'Profile masterskaya', imported: 1 });
    const stored = openCredentials(bed.t.deps.sealer, await bed.row(id));
    expect(Object.keys(stored).sort()).toEqual(
      expect.arrayContaining(['access_token', 'expires_at', 'user_id', 'username']),
    );
    // The long-lived token is kept, not the one-hour one.
    expect(emu.apiCalls('GET', '/access_token').at(-1)!.params.grant_type).toBe('th_exchange_token');
    expect(Number(stored.expires_at)).toBeGreaterThan(Date.now() + 50 * 86_400_000);

    const fresh = emu.addMedia({ owner: profile, replyTo: post.id, username: 'anna', text: 'Где купить?' });
    const nested = emu.addMedia({
      owner: profile,
      replyTo: fresh.id,
      username: 'boris',
      text: 'Тоже интересно',
    });
    await bed.whilePolling(async (ticker) => {
      await ticker.untilWaits(1);
      // The next round waits THREADS_POLL_S (300 s), jitter fixed at its middle.
      expect(ticker.waits[0]).toBe(300_000);
      const anna = (await bed.item(id, fresh.id))!;
      expect(anna).toMatchObject({ text: 'Где купить?', isOwn: false, kind: 'comment' });
      const boris = (await bed.item(id, nested.id))!;
      expect(boris.parentId).toBe(anna.id);

      emu.failNext(429, { retryAfter: 7 });
      const reply = await bed.replyThrough429(anna.id, 'В мастерской на Ленина', 8_000);
      const container = emu.apiCalls('POST', '/v1.0/me/threads').at(-1)!;
      expect(container.params).toMatchObject({
        media_type: 'TEXT',
        reply_to_id: fresh.id,
        text: 'В мастерской на Ленина',
      });
      expect(emu.apiCalls('POST', '/v1.0/me/threads_publish')).toHaveLength(1);
      expect(reply.delivery).toBe('sent');
      expect(emu.media.get(reply.externalId!)?.repliedToId).toBe(fresh.id);

      // Our reply comes back in the next round as our own: still one item.
      await ticker.tick();
      expect(await bed.copiesOf(id, reply.externalId!)).toHaveLength(1);

      for (const [action, hidden] of [
        ['hide', true],
        ['unhide', false],
      ] as const) {
        const res = await bed.inject('POST', `/v1/items/${anna.id}/${action}`);
        expect(res.statusCode, res.body).toBe(200);
        await bed.drain();
        expect(emu.apiCalls('POST', `/v1.0/${fresh.id}/manage_reply`).at(-1)!.params.hide).toBe(
          String(hidden),
        );
        expect(emu.media.get(fresh.id)?.hidden).toBe(hidden);
      }
    });
  });

  it('restart: the cursor is kept, nothing is missed or repeated; a 429 on a poll waits its Retry-After', async () => {
    const { profile, post, id } = await connect('restart_profile');
    const same = new Date(Date.now() + 1_000);
    const a = emu.addMedia({ owner: profile, replyTo: post.id, username: 'a', text: 'a', at: same });
    const b = emu.addMedia({ owner: profile, replyTo: post.id, username: 'b', text: 'b', at: same });
    const cursor = (await bed.pollRound(id)).pollCursor;
    expect(JSON.parse(cursor!).ids.sort()).toEqual([a.id, b.id].sort());

    // While no node polls: one more at the same instant, and 150 replies (two conversation pages).
    const c = emu.addMedia({ owner: profile, replyTo: post.id, username: 'c', text: 'c', at: same });
    for (let i = 0; i < 150; i += 1)
      emu.addMedia({
        owner: profile,
        replyTo: post.id,
        username: `u${i}`,
        text: `bulk ${i}`,
        at: new Date(Date.now() + 3_000 + i * 1000),
      });

    emu.failNext(429, { retryAfter: 42 });
    await bed.whilePolling(async (ticker) => {
      await ticker.untilWaits(1);
      expect(ticker.waits[0]).toBe(42_000);
      await ticker.tick();
      // A crash before the cursor was saved: the same round again stores nothing twice.
      await bed.db().update(objects).set({ pollCursor: cursor }).where(eq(objects.id, id));
      await ticker.tick();
    }, 'another-threads-node');
    expect((await bed.row(id)).error).toBeNull();

    const ids = (await bed.itemsOf(id)).map((i) => i.externalId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const expected of [a, b, c]) expect(ids).toContain(expected.id);
    expect((await bed.itemsOf(id)).filter((i) => i.text.startsWith('bulk '))).toHaveLength(150);
  });

  it('a revoked token becomes the account error and polling stops', async () => {
    const { profile, id } = await connect('revoked_profile');
    emu.revoke(profile.id);
    const stored = await bed.pollUntilIdle(id);
    expect(stored.error).toContain('failure.accessRevoked');
    expect(stored.pollLeaseNode).toBe('paused');
    expect((await bed.listedError(id))?.error).toContain('failure.accessRevoked');
  });

  it('a token close to expiry is refreshed and the new one stored', async () => {
    const { id } = await connect('expiring_profile');
    const before = openCredentials(bed.t.deps.sealer, await bed.row(id));
    const soon = String(Date.now() + 86_400_000);
    await bed
      .db()
      .update(objects)
      .set({ credentials: sealCredentials(bed.t.deps.sealer, { ...before, expires_at: soon }) })
      .where(eq(objects.id, id));
    await bed.pollRound(id);
    expect(emu.apiCalls('GET', '/refresh_access_token').at(-1)!.params).toMatchObject({
      grant_type: 'th_refresh_token',
      access_token: before.access_token,
    });
    const after = openCredentials(bed.t.deps.sealer, await bed.row(id));
    expect(after.access_token).not.toBe(before.access_token);
    expect(Number(after.expires_at)).toBeGreaterThan(Date.now() + 50 * 86_400_000);
    expect(after.username).toBe('expiring_profile');
    expect((await bed.row(id)).error).toBeNull();
  });

  it('a refused consent is a translated error', async () => {
    emu.consenting = null;
    const back = await bed.popup();
    expect(back.error).toBe('access_denied');
    const res = await bed.finish(back);
    expect(res.statusCode).toBe(400);
    expect(res.json().error_type).toBe('access_denied');
  });
});
