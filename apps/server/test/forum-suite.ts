import type { ProviderId } from '@otklik/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ForumCall, ForumEmulator } from '../emulators/forum-emulator';
import { objects, outbox } from '../src/db/schema';
import { StoreTestbed, until } from './store-testbed';

// TEST-ONLY: what every feedback-forum connector (UserEcho, UseResponse) is checked for against its
// emulator over real HTTP and a real database: a refused key or a malformed address stores nothing and
// says why; topics and comments are imported and polled on the interval with a cursor that survives a
// restart, each stored once (our own reply too, when the poll brings it back); a reply goes through the
// outbox after a 429's Retry-After; a revoked key becomes the account's error.

export interface ForumSuite<E extends ForumEmulator> {
  provider: ProviderId;
  start(): Promise<E>;
  env(emu: E): Record<string, string>;
  /** The typed credentials for a site and key. */
  credentials(site: string, key: string): Record<string, string>;
  /** A fresh site name (alias or domain). */
  site(n: number): string;
  /** The field that refuses a malformed address, and such an address. */
  badSite: { field: string; value: string };
  /** The network's words for a refused key. */
  refusedKey: RegExp;
  pollSeconds: number;
  /** The call that created a comment: its text and topic. */
  replyOf(call: ForumCall): { topicId: string; text: string };
}

export function forumSuite<E extends ForumEmulator>(s: ForumSuite<E>) {
  let emu: E;
  const w = new StoreTestbed(s.provider, () => s.env(emu));
  beforeAll(async () => {
    emu = await s.start();
    await w.start();
  });
  afterAll(async () => {
    await w.close();
    await emu.close();
  });

  let seq = 0;
  function newSite() {
    seq += 1;
    const site = s.site(seq);
    const key = `key-${seq}-${Date.now()}`;
    emu.addSite(site, key);
    return { site, key, credentials: s.credentials(site, key) };
  }

  describe('connecting', () => {
    it('refuses a wrong key with the network’s words and a malformed address by field; stores nothing', async () => {
      const before = await w.db().select().from(objects).where(eq(objects.spaceId, w.spaceId));
      const { site } = newSite();
      const wrong = await w.connect(s.credentials(site, 'not-the-key'));
      expect(wrong.statusCode, wrong.body).toBe(400);
      expect(wrong.json().error).toMatch(s.refusedKey);
      const malformed = await w.connect({ ...s.credentials(site, 'x'), [s.badSite.field]: s.badSite.value });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toMatchObject({
        error_type: 'validation',
        fields: { [`credentials.${s.badSite.field}`]: expect.any(String) },
      });
      expect(await w.db().select().from(objects).where(eq(objects.spaceId, w.spaceId))).toHaveLength(
        before.length,
      );
    });

    it('imports the topics and their comments as items, the key kept sealed', async () => {
      const { site, key, credentials } = newSite();
      const topic = emu.topic(site, {
        header: 'Тёмная тема',
        description: 'Сделайте, пожалуйста &amp; скорее',
      });
      const comment = emu.comment(site, topic.id, 'Поддерживаю');
      const row = await w.connectOk(credentials);
      expect(row).toMatchObject({ provider: s.provider, externalId: site, updatesMode: 'polling' });
      expect(JSON.stringify(row.credentials)).not.toContain(key);
      const stored = await w.itemsOf(row.id);
      expect(stored.map((i) => [i.externalId, i.kind, i.text])).toEqual([
        [`topic:${topic.id}`, 'comment', 'Тёмная тема\n\nСделайте, пожалуйста & скорее'],
        [`comment:${comment.id}`, 'comment', 'Поддерживаю'],
      ]);
      expect(stored[1]!.postId).toBe(stored[0]!.postId);
    });
  });

  describe('polling and replying', () => {
    it('polls on its interval with a cursor, waits out a 429, survives a restart, replies once', async () => {
      await w.newSpace();
      const { site, credentials } = newSite();
      const topic = emu.topic(site, { header: 'Не приходит письмо' });
      const row = await w.connectOk(credentials);
      await w.startPolling(`${s.provider}-1`);
      await w.untilWaits(1);
      expect(w.waits[0]).toBeGreaterThanOrEqual(s.pollSeconds * 900);
      expect(w.waits[0]).toBeLessThanOrEqual(s.pollSeconds * 1100);

      const comment = emu.comment(site, topic.id, 'И у меня тоже');
      emu.rateLimitNext(20);
      w.release();
      await w.untilWaits(2);
      expect(w.waits[1]).toBe(20_000);
      w.release();
      const item = await until(() => w.item(row.id, `comment:${comment.id}`));
      expect(item).toMatchObject({ text: 'И у меня тоже', kind: 'comment' });
      // The round has ended (its cursor saved after the items) once the poller waits again.
      await w.untilWaits(3);
      expect(Number((await w.account(row.id)).pollCursor)).toBe(Date.parse(topic.updated));
      await w.stopPolling();

      const callsBefore = emu.calls.length;
      const sent = await w.reply(item.id, 'Проверьте папку «Спам», пожалуйста');
      expect(sent.statusCode, sent.body).toBe(200);
      emu.rateLimitNext(30);
      await w.drain();
      const [pending] = await w.db().select().from(outbox).where(eq(outbox.itemId, sent.json().reply.id));
      expect(pending!.runAt.getTime()).toBe(w.clock + 30_000);
      await w.drain(30_000);
      // One POST refused with the 429, one delivered; the topic got one comment of ours.
      const posts = emu.calls.slice(callsBefore).filter((c) => c.method === 'POST');
      expect(posts).toHaveLength(2);
      expect(s.replyOf(posts[1]!)).toEqual({
        topicId: String(topic.id),
        text: 'Проверьте папку «Спам», пожалуйста',
      });
      expect(topic.comments).toHaveLength(2);
      const ours = topic.comments.at(-1)!;
      const reply = (await w.item(row.id, `comment:${ours.id}`))!;
      expect(reply).toMatchObject({ isOwn: true, delivery: 'sent' });

      // The next rounds bring the topic (and our comment in it) back: everything is stored once.
      const rounds = w.waits.length;
      await w.startPolling(`${s.provider}-2`);
      await w.untilWaits(rounds + 1);
      await w.stopPolling();
      const all = await w.itemsOf(row.id);
      expect(all.map((i) => i.externalId)).toEqual([
        `topic:${topic.id}`,
        `comment:${comment.id}`,
        `comment:${ours.id}`,
      ]);
    });

    it('a revoked key becomes the account error', async () => {
      await w.newSpace();
      const { site, key, credentials } = newSite();
      const row = await w.connectOk(credentials);
      emu.revoke(site, key);
      await w.startPolling(`${s.provider}-revoked`);
      const broken = await until(async () => {
        const account = await w.account(row.id);
        return account.error ? account : null;
      });
      await w.stopPolling();
      expect(broken.error).toMatch(s.refusedKey);
      const errors = await w.t.app.inject({ url: '/v1/errors', headers: w.headers });
      expect(errors.json().items).toContainEqual(expect.objectContaining({ id: row.id }));
    });
  });
}
