import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiscordEmulator } from '../../../emulators/discord/emulator';
import { createTestApp, type TestApp } from '../../../test/harness';
import { buildWorker, buildWorkspace } from '../../../test/inbox-actions';
import { chats, items, messages, objects } from '../../db/schema';
import { PollingManager } from '../../jobs/pollers';
import { INTENTS, readGatewayCursor } from './gateway';

// Discord bot (PROVIDERS §7c) against its emulator on 127.0.0.1, with a real websocket gateway: connect
// with the bot token, IDENTIFY with the intents, a channel message becomes a comment and a DM a chat,
// the reply goes over REST (429 once, then delivered), a dropped socket RESUMEs from the last sequence
// without losing or repeating a message, and an invalid or revoked token is the account's error.

let t: TestApp;
let emu: DiscordEmulator;
let headers: Record<string, string> = {};
let spaceId = 0;
let clock = Date.now();
const GUILD = '1100000000000000001';
const CHANNEL = '1200000000000000001';
const OTHER_CHANNEL = '1200000000000000002';
const DM = '1250000000000000001';

beforeAll(async () => {
  emu = await DiscordEmulator.start();
  t = await createTestApp({ DISCORD_API_URL: emu.url, DISCORD_GATEWAY_URL: emu.wsUrl, POLL_TIMEOUT_S: '1' });
  const admin = await buildWorkspace(t);
  headers = admin.headers;
  spaceId = admin.space.id;
});
afterAll(async () => {
  await t.close();
  await emu.close();
});

const db = () => t.deps.database.db;

async function until<T>(probe: () => Promise<T | undefined | null | false>): Promise<T> {
  for (let i = 0; i < 400; i += 1) {
    const value = await probe();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('condition not met in time');
}

async function connect(name: string) {
  const bot = emu.addBot(name);
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/objects',
    headers,
    payload: { provider: 'discord', credentials: { bot_token: bot.token, channel_ids: CHANNEL } },
  });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().id as number;
  return { bot, id };
}

const itemOf = async (objectId: number, externalId: string) =>
  (
    await db()
      .select()
      .from(items)
      .where(and(eq(items.objectId, objectId), eq(items.externalId, externalId)))
  )[0];

function drain(advanceMs?: number) {
  clock = advanceMs === undefined ? Math.max(clock, Date.now()) + 1_000 : clock + advanceMs;
  return buildWorker(t, { spaceIds: [spaceId], now: () => new Date(clock) }).drain();
}

const manager = () =>
  new PollingManager({ ...t.deps, db: db() }, `dc-${Date.now()}`, { spaceIds: [spaceId] });

describe('Discord', () => {
  it('gateway message → comment and chat → reply over REST, 429 once, then delivered', async () => {
    const { bot, id } = await connect('shopbot');
    const polling = manager();
    try {
      await polling.scan();
      await until(async () => emu.sessionOf(bot));
      const identify = emu.gatewayOps.find(
        (o) => o.op === 2 && (o.d as { token: string }).token === bot.token,
      );
      expect((identify!.d as { intents: number }).intents).toBe(INTENTS);

      const asked = emu.userWrites(bot, { channelId: CHANNEL, guildId: GUILD, text: 'Есть доставка?' });
      emu.userWrites(bot, { channelId: OTHER_CHANNEL, guildId: GUILD, text: 'Не наш канал' });
      const dm = emu.userWrites(bot, { channelId: DM, text: 'Привет в личку' });
      const item = await until(() => itemOf(id, asked.id));
      expect(item).toMatchObject({ text: 'Есть доставка?', kind: 'comment' });
      const chat = await until(
        async () =>
          (
            await db()
              .select()
              .from(chats)
              .where(and(eq(chats.objectId, id), eq(chats.externalId, DM)))
          )[0],
      );
      const [incoming] = await db().select().from(messages).where(eq(messages.chatId, chat.id));
      expect(incoming).toMatchObject({ externalId: dm.id, text: 'Привет в личку' });
      const all = await db().select().from(items).where(eq(items.objectId, id));
      expect(all.map((i) => i.text)).not.toContain('Не наш канал');

      emu.rateLimitNext(0.4);
      const replied = await t.app.inject({
        method: 'POST',
        url: `/v1/items/${item.id}/reply`,
        headers,
        payload: { text: 'Да, по городу бесплатно' },
      });
      expect(replied.statusCode, replied.body).toBe(200);
      const replyId = replied.json().reply.id as number;
      await drain();
      expect((await db().select().from(items).where(eq(items.id, replyId)))[0]!.delivery).not.toBe('sent');
      await drain(2_000);
      const reply = (await db().select().from(items).where(eq(items.id, replyId)))[0]!;
      expect(reply.delivery).toBe('sent');
      expect(emu.sent.filter((s) => s.content === 'Да, по городу бесплатно')).toEqual([
        expect.objectContaining({ channelId: CHANNEL, replyTo: asked.id, id: reply.externalId }),
      ]);

      // Moderation the catalogue offers: delete the customer's message, edit our reply.
      const edited = await t.app.inject({
        method: 'PUT',
        url: `/v1/items/${replyId}`,
        headers,
        payload: { text: 'Да, и по области тоже' },
      });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(
        (await t.app.inject({ method: 'POST', url: `/v1/items/${item.id}/delete`, headers })).statusCode,
      ).toBe(200);
      await drain();
      expect(emu.sent.find((s) => s.id === reply.externalId)?.content).toBe('Да, и по области тоже');
      expect(emu.deleted).toContain(asked.id);
    } finally {
      await polling.stop();
    }
  });

  it('a dropped socket resumes from the last sequence: nothing lost, nothing twice', async () => {
    const { bot, id } = await connect('resumebot');
    const polling = manager();
    try {
      await polling.scan();
      await until(async () => emu.sessionOf(bot));
      const first = emu.userWrites(bot, { channelId: CHANNEL, guildId: GUILD, text: 'До обрыва' });
      await until(() => itemOf(id, first.id));
      const sessionId = emu.sessionOf(bot)!.id;
      emu.drop(bot);
      const missed = emu.userWrites(bot, { channelId: CHANNEL, guildId: GUILD, text: 'Во время обрыва' });
      await until(() => itemOf(id, missed.id));
      const resume = emu.gatewayOps.find(
        (o) => o.op === 6 && (o.d as { session_id: string }).session_id === sessionId,
      );
      expect(resume).toBeTruthy();
      const rows = await db().select().from(items).where(eq(items.objectId, id));
      expect(rows.filter((r) => r.externalId === first.id)).toHaveLength(1);
      expect(rows.filter((r) => r.externalId === missed.id)).toHaveLength(1);
      const [row] = await db().select().from(objects).where(eq(objects.id, id));
      expect(readGatewayCursor(row!.pollCursor)?.sessionId).toBe(sessionId);
    } finally {
      await polling.stop();
    }
  });

  it('heartbeats not ACKed mean a dead link: the client reconnects and RESUMEs', async () => {
    const { bot } = await connect('silentbot');
    const polling = manager();
    emu.heartbeatInterval = 100;
    try {
      await polling.scan();
      await until(async () => emu.sessionOf(bot));
      const sessionId = emu.sessionOf(bot)!.id;
      emu.silent = true;
      await until(async () =>
        emu.gatewayOps.some((o) => o.op === 6 && (o.d as { session_id: string }).session_id === sessionId),
      );
    } finally {
      emu.silent = false;
      emu.heartbeatInterval = 45_000;
      await polling.stop();
    }
  });

  it('an invalid token is refused on connect; a revoked one becomes the account error', async () => {
    const refused = await t.app.inject({
      method: 'POST',
      url: '/v1/objects',
      headers,
      payload: { provider: 'discord', credentials: { bot_token: 'not-a-token' } },
    });
    expect(refused.statusCode).toBe(400);

    const { bot, id } = await connect('revokedbot');
    const polling = manager();
    try {
      await polling.scan();
      await until(async () => emu.sessionOf(bot)?.socket);
      emu.revoke(bot);
      const row = await until(async () => {
        const [o] = await db().select().from(objects).where(eq(objects.id, id));
        return o?.error ? o : null;
      });
      expect(row.error).toBeTruthy();
    } finally {
      await polling.stop();
    }
  });
});
