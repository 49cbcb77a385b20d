import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';
import { eq } from 'drizzle-orm';
import { objects } from '../../src/db/schema';
import { openCredentials } from '../../src/providers/context';
import { type MaxEmulator, startMaxEmulator } from '../../src/providers/max/emulator';
import type { MaxMessage, MaxUser } from '../../src/providers/max/types';
import { startCdn, type TestCdn } from '../cdn';
import { createTestApp, type TestApp } from '../harness';
import { buildWorker, buildWorkspace } from '../inbox-actions';

// TEST-ONLY: the app on 127.0.0.1 (so the emulator can push to APP_URL) with MAX_API_URL at the emulator.

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface MaxWorld {
  max: MaxEmulator;
  /** The CDN customers' file links point at (i.max.ru), reached through the media test hook. */
  cdn: TestCdn;
  t: TestApp;
  headers: Record<string, string>;
  spaceId: number;
  close(): Promise<void>;
}

export async function startMaxWorld(env: Record<string, string> = {}): Promise<MaxWorld> {
  const max = await startMaxEmulator();
  const cdn = await startCdn();
  const port = await freePort();
  const t = await createTestApp(
    {
      APP_URL: `http://127.0.0.1:${port}`,
      MAX_API_URL: max.url,
      PROVIDER_UPDATES: 'webhook',
      ...env,
    },
    { mediaNetwork: cdn.network },
  );
  await t.app.listen({ port, host: '127.0.0.1' });
  const admin = await buildWorkspace(t);
  return {
    max,
    cdn,
    t,
    headers: admin.headers,
    spaceId: admin.space.id,
    close: async () => {
      await t.close();
      await max.close();
      await cdn.close();
    },
  };
}

export function newBot(max: MaxEmulator) {
  const id = randomInt(1_000_000, 2_000_000_000);
  const token = max.addBot({
    user_id: id,
    first_name: 'Shop',
    name: 'Shop MAX bot',
    username: `shop${id}_bot`,
  });
  return { id, token };
}

export const person = (): MaxUser => {
  const id = randomInt(100_000, 2_000_000_000);
  return { user_id: id, first_name: 'Пётр', last_name: 'И.', name: 'Пётр И.', username: null, is_bot: false };
};

export const dialogOf = (user: MaxUser): MaxMessage['recipient'] => ({
  chat_id: user.user_id + 1,
  chat_type: 'dialog',
});

export const groupChat = (): MaxMessage['recipient'] => ({
  chat_id: -randomInt(1_000_000, 9_000_000),
  chat_type: 'chat',
});

export async function connectBot(world: MaxWorld, token: string) {
  const res = await world.t.app.inject({
    method: 'POST',
    url: '/v1/objects',
    headers: world.headers,
    payload: { provider: 'max', credentials: { access_token: token } },
  });
  if (res.statusCode !== 200) throw new Error(`connect failed: ${res.statusCode} ${res.body}`);
  const account = res.json() as { id: number; name: string };
  const [row] = await world.t.deps.database.db.select().from(objects).where(eq(objects.id, account.id));
  return { account, row: row!, secret: openCredentials(world.t.deps.sealer, row!).webhook_secret! };
}

export function workerOf(world: MaxWorld) {
  const clock = { ms: Date.now() };
  const worker = buildWorker(world.t, { spaceIds: [world.spaceId], now: () => new Date(clock.ms) });
  return {
    clock,
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
