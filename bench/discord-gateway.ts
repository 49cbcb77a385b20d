// Discord gateway phase of `npm run bench -- ingest` (issue 20): a bot connected through the app's API
// with the emulator's token, the polling manager holding its gateway websocket (IDENTIFY, heartbeats),
// then `total` MESSAGE_CREATE dispatches in a followed channel as fast as the socket takes them — timed
// from the first dispatch until every message is a stored comment (and none twice).
import { performance } from 'node:perf_hooks';
import { count, eq } from 'drizzle-orm';
import { DiscordEmulator } from '../apps/server/emulators/discord/emulator';
import { items } from '../apps/server/src/db/schema';
import { type PollingDeps, PollingManager } from '../apps/server/src/jobs/pollers';

const CHANNEL = '1200000000000000777';
const GUILD = '1100000000000000777';
/** Bounds of the waits below: the gateway opens within seconds; the messages are stored well within this. */
const SESSION_WAIT_MS = 30_000;
const STORE_WAIT_MS = 180_000;

export async function startDiscordBench() {
  const emu = await DiscordEmulator.start();
  return { emu, env: { DISCORD_API_URL: emu.url, DISCORD_GATEWAY_URL: emu.wsUrl } };
}

export interface DiscordGatewayFigures {
  messages: number;
  stored: number;
  ms: number;
  perSecond: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(probe: () => Promise<boolean> | boolean, limitMs: number, what: string) {
  const deadline = performance.now() + limitMs;
  while (!(await probe())) {
    if (performance.now() > deadline) throw new Error(`discord bench: ${what} not within ${limitMs} ms`);
    await pause(20);
  }
}

/** Connects a bot through the app's API (`base`, `auth`), opens its gateway, times `total` messages. */
export async function benchDiscordGateway(opts: {
  emu: DiscordEmulator;
  base: string;
  auth: Record<string, string>;
  spaceId: number;
  deps: PollingDeps;
  total: number;
  /** Accounts made here, for the caller to remove. */
  created: number[];
}): Promise<DiscordGatewayFigures> {
  const { emu, deps } = opts;
  const bot = emu.addBot('benchbot');
  const connected = await fetch(`${opts.base}/v1/objects`, {
    method: 'POST',
    headers: { ...opts.auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      provider: 'discord',
      credentials: { bot_token: bot.token, channel_ids: CHANNEL },
    }),
  });
  if (!connected.ok) throw new Error(`discord connect failed: ${connected.status} ${await connected.text()}`);
  const objectId = ((await connected.json()) as { id: number }).id;
  opts.created.push(objectId);

  const polling = new PollingManager(deps, `bench-discord-${process.pid}`, { spaceIds: [opts.spaceId] });
  try {
    await polling.scan();
    await until(() => Boolean(emu.sessionOf(bot)), SESSION_WAIT_MS, 'the gateway session');
    const stored = async () =>
      Number(
        (await deps.db.select({ n: count() }).from(items).where(eq(items.objectId, objectId)))[0]?.n ?? 0,
      );
    const t0 = performance.now();
    for (let i = 0; i < opts.total; i += 1)
      emu.userWrites(bot, {
        channelId: CHANNEL,
        guildId: GUILD,
        text: `Bench question ${i}`,
        user: { id: String(2_000_000_000_000_000_000n + BigInt(i % 300)), username: `fan${i % 300}` },
      });
    await until(async () => (await stored()) >= opts.total, STORE_WAIT_MS, 'every message stored');
    const ms = performance.now() - t0;
    return { messages: opts.total, stored: await stored(), ms, perSecond: opts.total / (ms / 1000) };
  } finally {
    await polling.stop();
  }
}
