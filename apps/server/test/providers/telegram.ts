import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';
import { eq } from 'drizzle-orm';
import { objects } from '../../src/db/schema';
import { openCredentials } from '../../src/providers/context';
import { startTelegramEmulator, type TelegramEmulator } from '../../src/providers/telegram/emulator';
import type { TgChat, TgUser } from '../../src/providers/telegram/types';
import { createTestApp, type TestApp } from '../harness';
import { buildWorker, buildWorkspace } from '../inbox-actions';

// TEST-ONLY: the app listening on 127.0.0.1 (so the emulator can push webhooks to APP_URL) with
// TELEGRAM_API_URL pointing at the emulator, and factories for bots, customers and groups.

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface TelegramWorld {
  tg: TelegramEmulator;
  t: TestApp;
  headers: Record<string, string>;
  spaceId: number;
  close(): Promise<void>;
}

export async function startTelegramWorld(env: Record<string, string> = {}): Promise<TelegramWorld> {
  const tg = await startTelegramEmulator();
  const port = await freePort();
  const t = await createTestApp({
    APP_URL: `http://127.0.0.1:${port}`,
    TELEGRAM_API_URL: tg.url,
    PROVIDER_UPDATES: 'webhook',
    ...env,
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  const admin = await buildWorkspace(t);
  return {
    tg,
    t,
    headers: admin.headers,
    spaceId: admin.space.id,
    close: async () => {
      await t.close();
      await tg.close();
    },
  };
}

export function newBot(tg: TelegramEmulator) {
  const id = randomInt(1_000_000, 2_000_000_000);
  const token = `${id}:AAH${randomInt(1e9, 9e9)}secret`;
  tg.addBot(token, { id, first_name: 'Shop Bot', username: `shop${id}_bot` });
  return { id, token };
}

export function customer(): TgUser {
  const id = randomInt(100_000, 2_000_000_000);
  return { id, is_bot: false, first_name: 'Anna', last_name: 'K', username: `anna${id}` };
}

export const privateChat = (user: TgUser): TgChat => ({
  id: user.id,
  type: 'private',
  first_name: user.first_name,
  username: user.username,
});

export function discussionGroup(): { group: TgChat; channel: TgChat } {
  const n = randomInt(1_000_000, 9_999_999);
  return {
    group: { id: -1_001_000_000_000 - n, type: 'supergroup', title: 'Shop chat' },
    channel: { id: -1_002_000_000_000 - n, type: 'channel', title: 'Shop news', username: `shopnews${n}` },
  };
}

export async function connectBot(world: TelegramWorld, token: string) {
  const res = await world.t.app.inject({
    method: 'POST',
    url: '/v1/objects',
    headers: world.headers,
    payload: { provider: 'telegram', credentials: { bot_token: token } },
  });
  if (res.statusCode !== 200) throw new Error(`connect failed: ${res.statusCode} ${res.body}`);
  const account = res.json() as { id: number; name: string };
  const [row] = await world.t.deps.database.db.select().from(objects).where(eq(objects.id, account.id));
  return { account, row: row!, secret: openCredentials(world.t.deps.sealer, row!).webhook_secret! };
}

/** An outbox worker for the world's space with a clock tests move forward. */
export function workerOf(world: TelegramWorld) {
  const clock = { ms: Date.now() };
  const worker = buildWorker(world.t, { spaceIds: [world.spaceId], now: () => new Date(clock.ms) });
  return {
    clock,
    /** Moves the clock `ms` ahead and runs everything due. */
    async run(ms = 1_000) {
      clock.ms = Math.max(clock.ms, Date.now()) + ms;
      return worker.drain();
    },
  };
}

export async function until<T>(
  probe: () => Promise<T | undefined | null | false>,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}
