// X poll phase of `npm run bench -- ingest` (issue 20): an account connected through the emulator's OAuth
// 2.0 popup (PKCE), mentions waiting on it, and one polling round as the polling manager runs it —
// mention pages read with since_id, events ingested, the cursor saved — timed; then a second round,
// which must find nothing new. A round reads at most 5 pages of 100 (the pace keeps within X's window).
import { performance } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import { TwitterEmulator } from '../apps/server/emulators/twitter/emulator';
import type { Db } from '../apps/server/src/db/client';
import { items, objects } from '../apps/server/src/db/schema';
import type { Config } from '../apps/server/src/lib/config';
import type { Sealer } from '../apps/server/src/lib/crypto';
import { ingest } from '../apps/server/src/modules/inbox/ingest/ingest';
import { connectorContext } from '../apps/server/src/providers/context';
import { twitterConnector } from '../apps/server/src/providers/twitter/connector';
import type { EventBus } from '../apps/server/src/realtime/bus';

export async function startTwitterBench() {
  const emu = await TwitterEmulator.start();
  emu.tier = 'pro';
  return {
    emu,
    env: {
      TWITTER_API_URL: emu.url,
      TWITTER_OAUTH_URL: `${emu.url}/i/oauth2/authorize`,
      TWITTER_CLIENT_ID: emu.app.clientId,
      TWITTER_CLIENT_SECRET: emu.app.clientSecret,
    },
  };
}

export interface TwitterPollFigures {
  mentions: number;
  stored: number;
  roundMs: number;
  perSecond: number;
  secondRoundEvents: number;
}

/** Connects an account through the app's API (`base`, `auth`), seeds `total` mentions, times one round. */
export async function benchTwitterPoll(opts: {
  emu: TwitterEmulator;
  base: string;
  auth: Record<string, string>;
  appUrl: string;
  deps: { db: Db; bus: EventBus; sealer: Sealer; config: Config };
  /** At most 500: one round reads 5 pages of 100. */
  total: number;
  /** Accounts made here, for the caller to remove. */
  created: number[];
}): Promise<TwitterPollFigures> {
  const { emu, base, auth, deps } = opts;
  const brand = emu.addUser('bench_brand', 'Bench brand');
  const before = emu.post(brand, 'Before the bench');
  emu.consenting = brand;
  const redirectUri = `${opts.appUrl}/callback/twitter`;
  const start = await fetch(`${base}/v1/twitter/auth/start?redirect_uri=${encodeURIComponent(redirectUri)}`, {
    headers: auth,
  });
  if (!start.ok) throw new Error(`twitter auth/start failed: ${start.status} ${await start.text()}`);
  const { url } = (await start.json()) as { url: string };
  const page = await fetch(url, { redirect: 'manual' });
  const back = Object.fromEntries(new URL(page.headers.get('location')!).searchParams);
  const connected = await fetch(`${base}/v1/twitter/auth`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ ...back, redirect_uri: redirectUri }),
  });
  if (!connected.ok) throw new Error(`twitter connect failed: ${connected.status} ${await connected.text()}`);
  const objectId = ((await connected.json()) as { object: { id: number } }).object.id;
  opts.created.push(objectId);

  const fans = Array.from({ length: 200 }, (_, i) => emu.addUser(`fan${i}`, `Fan ${i}`));
  for (let i = 0; i < opts.total; i += 1) {
    const fan = fans[i % fans.length]!;
    if (i % 2 === 0) emu.post(fan, `@bench_brand question ${i}`, { mention: brand });
    else emu.post(fan, `Reply ${i}`, { replyTo: before.id });
  }
  // The cursor from before the mentions: the round must take them all.
  await deps.db
    .update(objects)
    .set({ pollCursor: JSON.stringify({ m: before.id }) })
    .where(eq(objects.id, objectId));

  const round = async () => {
    const [row] = await deps.db.select().from(objects).where(eq(objects.id, objectId));
    const controller = new AbortController();
    const result = await twitterConnector.poll!(connectorContext(deps, row!), row!.pollCursor, {
      timeoutSeconds: 0,
      signal: controller.signal,
    });
    if (result.events.length > 0) await ingest(deps, row!, result.events);
    await deps.db.update(objects).set({ pollCursor: result.cursor }).where(eq(objects.id, objectId));
    return result;
  };
  const t0 = performance.now();
  const first = await round();
  const roundMs = performance.now() - t0;
  const second = await round();
  const stored = (await deps.db.select({ id: items.id }).from(items).where(eq(items.objectId, objectId)))
    .length;
  return {
    mentions: first.events.length,
    stored,
    roundMs,
    perSecond: first.events.length / (roundMs / 1000),
    secondRoundEvents: second.events.length,
  };
}
