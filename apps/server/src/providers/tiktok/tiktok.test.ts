import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TiktokEmulator } from '../../../emulators/tiktok/emulator';
import { ProviderTestbed, until } from '../../../test/providers/testbed';
import { items, objects } from '../../db/schema';
import { PollingManager } from '../../jobs/pollers';
import { openCredentials } from '../context';

// TikTok API for Business (PROVIDERS §7g) against its emulator on 127.0.0.1: the OAuth popup
// (GET v1/tiktok/auth/start → consent → POST v1/tiktok/auth), comments polled by the polling manager,
// a reply, hide/unhide and like through the outbox, 429 once then delivered, a comment listed twice
// stored once, and a revoked token shown on the account.

let emu: TiktokEmulator;
const bed = new ProviderTestbed({
  provider: 'tiktok',
  env: () => ({
    TIKTOK_API_URL: emu.url,
    TIKTOK_OAUTH_URL: `${emu.url}/oauth`,
    TIKTOK_CLIENT_ID: emu.app.clientId,
    TIKTOK_CLIENT_SECRET: emu.app.clientSecret,
    POLL_TIMEOUT_S: '0',
  }),
});

beforeAll(async () => {
  emu = await TiktokEmulator.start();
  bed.onClose(() => emu.close());
  await bed.start();
});
afterAll(() => bed.close());

/** The popup, checking the app TikTok's page is opened for. */
const popup = () => bed.popup((page) => expect(page.searchParams.get('client_key')).toBe(emu.app.clientId));

async function connect(username: string) {
  const account = emu.addAccount(username, `Магазин ${username}`);
  const video = emu.addVideo(account, 'Новая коллекция');
  const old = emu.addComment(video.item_id, { text: 'Давний вопрос', user: 'anna' });
  emu.consenting = account;
  const back = await popup();
  const res = await bed.finish({ code: back.code!, state: back.state! });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().object.id as number;
  return { account, video, old, id, row: await bed.row(id), answer: res.json() };
}

describe('TikTok', () => {
  it('connects by OAuth, keeps the tokens sealed, imports the recent comments', async () => {
    const c = await connect('shop_one');
    expect(c.answer).toMatchObject({ status: 'ok', source: 'tiktok', object: { name: 'Магазин shop_one' } });
    expect(c.row.externalId).toBe(c.account.openId);
    expect(c.row.updatesMode).toBe('polling');
    const stored = openCredentials(bed.t.deps.sealer, c.row);
    expect(stored).toMatchObject({ access_token: c.account.accessToken, open_id: c.account.openId });
    expect(JSON.stringify(c.answer)).not.toContain(c.account.accessToken);
    expect(await bed.item(c.id, c.old.comment_id)).toMatchObject({ text: 'Давний вопрос', kind: 'comment' });
    const grants = emu.callsTo('/tt_user/oauth2/token/').map((call) => call.body?.grant_type);
    expect(grants).toContain('authorization_code');
    // The code is spent.
    emu.consenting = null;
    const refused = await popup();
    expect(refused.error).toBe('access_denied');
    const res = await bed.inject('POST', '/v1/tiktok/auth', {
      error: refused.error,
      state: refused.state,
      redirect_uri: bed.redirectUri(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error_type).toBe('access_denied');
  });

  it('polls new comments once (a comment listed again is one item), replies, hides, 429 once then delivered', async () => {
    const c = await connect('shop_two');
    const manager = new PollingManager({ ...bed.t.deps, db: bed.db() }, `tt-${Date.now()}`, {
      spaceIds: [bed.spaceId],
    });
    try {
      const fresh = emu.addComment(c.video.item_id, { text: 'Есть размер M?', user: 'boris' });
      await manager.scan();
      const item = await until(() => bed.item(c.id, fresh.comment_id));
      expect(item).toMatchObject({ text: 'Есть размер M?', isOwn: false });
      // A later round lists the same comment again (it is still among the newest): still one item.
      const second = emu.addComment(c.video.item_id, { text: 'И цвет?', user: 'boris' });
      await until(() => bed.item(c.id, second.comment_id));
      const rows = await bed
        .db()
        .select()
        .from(items)
        .where(and(eq(items.objectId, c.id), eq(items.externalId, fresh.comment_id)));
      expect(rows).toHaveLength(1);
      await manager.stop();

      emu.rateLimitNext(7, '/business/comment/reply/create/');
      const replied = await bed.inject('POST', `/v1/items/${item.id}/reply`, { text: 'Да, есть' });
      expect(replied.statusCode, replied.body).toBe(200);
      await bed.drain();
      const replyId = replied.json().reply.id as number;
      let reply = (await bed.db().select().from(items).where(eq(items.id, replyId)))[0]!;
      expect(reply.delivery).not.toBe('sent');
      await bed.drain(8_000);
      reply = (await bed.db().select().from(items).where(eq(items.id, replyId)))[0]!;
      expect(reply.delivery).toBe('sent');
      const attempts = emu.callsTo('/business/comment/reply/create/');
      expect(attempts).toHaveLength(2);
      expect(attempts.at(-1)?.body).toMatchObject({
        business_id: c.account.openId,
        video_id: c.video.item_id,
        comment_id: fresh.comment_id,
        text: 'Да, есть',
      });
      const onNetwork = [...emu.comments.values()].find((x) => x.parent_comment_id === fresh.comment_id);
      expect(onNetwork).toMatchObject({ text: 'Да, есть', owner: true });
      expect(reply.externalId).toBe(onNetwork!.comment_id);

      expect((await bed.inject('POST', `/v1/items/${item.id}/hide`)).statusCode).toBe(200);
      await bed.drain();
      expect(emu.comments.get(fresh.comment_id)!.status).toBe('HIDDEN');
      expect((await bed.inject('POST', `/v1/items/${item.id}/unhide`)).statusCode).toBe(200);
      await bed.drain();
      expect(emu.comments.get(fresh.comment_id)!.status).toBe('PUBLIC');
      expect((await bed.inject('POST', `/v1/items/${item.id}/like`)).statusCode).toBe(200);
      await bed.drain();
      expect(emu.comments.get(fresh.comment_id)!.liked).toBe(true);
      // Customers' comments cannot be deleted through the API (own comments only): not offered.
      const deleted = await bed.inject('POST', `/v1/items/${item.id}/delete`);
      expect(deleted.statusCode).toBe(400);
    } finally {
      await manager.stop();
    }
  });

  it('a revoked token stops polling and shows the error on the account', async () => {
    const c = await connect('shop_three');
    c.account.revoked = true;
    const manager = new PollingManager({ ...bed.t.deps, db: bed.db() }, `tt-${Date.now()}`, {
      spaceIds: [bed.spaceId],
    });
    try {
      await manager.scan();
      const row = await until(async () => {
        const [o] = await bed.db().select().from(objects).where(eq(objects.id, c.id));
        return o?.error ? o : null;
      });
      expect(row.error).toContain('revoked');
      const listed = await bed.t.app.inject({ url: `/v1/objects/${c.id}`, headers: bed.headers });
      expect(listed.statusCode, listed.body).toBe(200);
      expect(JSON.stringify(listed.json())).toContain('revoked');
    } finally {
      await manager.stop();
    }
  });
});
