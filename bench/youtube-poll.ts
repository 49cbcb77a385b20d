// YouTube poll phase of `npm run bench -- ingest` (issue 19): a channel connected through the emulator's
// Google OAuth, 10,000 comments waiting on it (threads with replies), and one polling round as the
// polling manager runs it — commentThreads pages read, events ingested, the cursor saved — timed; then
// a second round, which must find nothing new. Prints comments/s, the round's time and the units spent.
import { performance } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import { YouTubeEmulator } from '../apps/server/emulators/youtube/emulator';
import type { Db } from '../apps/server/src/db/client';
import { items, objects } from '../apps/server/src/db/schema';
import type { Config } from '../apps/server/src/lib/config';
import type { Sealer } from '../apps/server/src/lib/crypto';
import { ingest } from '../apps/server/src/modules/inbox/ingest/ingest';
import { connectorContext } from '../apps/server/src/providers/context';
import { youtubeConnector } from '../apps/server/src/providers/youtube/connector';
import type { EventBus } from '../apps/server/src/realtime/bus';

export const YOUTUBE_APP = { id: 'bench-yt.apps.googleusercontent.com', secret: 'GOCSPX-bench' };
const REPLIES_PER_THREAD = 3;

export async function startYouTubeBench() {
  const emu = await YouTubeEmulator.start();
  emu.network.addClient(YOUTUBE_APP.id, YOUTUBE_APP.secret);
  emu.network.dailyLimit = 1_000_000;
  return {
    emu,
    env: { ...emu.env, YOUTUBE_CLIENT_ID: YOUTUBE_APP.id, YOUTUBE_CLIENT_SECRET: YOUTUBE_APP.secret },
  };
}

export interface YouTubePollFigures {
  comments: number;
  stored: number;
  roundMs: number;
  perSecond: number;
  units: number;
  secondRoundEvents: number;
}

/** Connects a channel through the app's API (`base`, `auth`), seeds `total` comments, times one round. */
export async function benchYouTubePoll(opts: {
  emu: YouTubeEmulator;
  base: string;
  auth: Record<string, string>;
  appUrl: string;
  deps: { db: Db; bus: EventBus; sealer: Sealer; config: Config };
  total: number;
  /** Accounts made here, for the caller to remove. */
  created: number[];
}): Promise<YouTubePollFigures> {
  const { emu, base, auth, deps } = opts;
  const channel = emu.network.addChannel('Bench channel');
  emu.network.consenting = channel;
  const redirectUri = `${opts.appUrl}/callback/youtube`;
  const start = await fetch(`${base}/v1/youtube/auth/start?redirect_uri=${encodeURIComponent(redirectUri)}`, {
    headers: auth,
  });
  if (!start.ok) throw new Error(`youtube auth/start failed: ${start.status} ${await start.text()}`);
  const { url } = (await start.json()) as { url: string };
  const page = await fetch(url, { redirect: 'manual' });
  const back = Object.fromEntries(new URL(page.headers.get('location')!).searchParams);
  const connected = await fetch(`${base}/v1/youtube/auth`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ ...back, redirect_uri: redirectUri }),
  });
  if (!connected.ok) throw new Error(`youtube connect failed: ${connected.status} ${await connected.text()}`);
  const objectId = ((await connected.json()) as { object: { id: number } }).object.id;
  opts.created.push(objectId);

  // Comments from an hour ago onwards, one second apart: threads, each with its replies.
  const from = Date.now() - 3_600_000;
  let made = 0;
  for (let thread = 0; made < opts.total; thread += 1) {
    const top = emu.network.addComment({
      channelId: channel.id,
      videoId: `video${thread % 50}`,
      author: { channelId: `UCbench${thread % 1000}`, name: `@viewer${thread % 1000}` },
      text: `Comment ${thread}`,
      at: new Date(from + made * 100),
    });
    made += 1;
    for (let r = 0; r < REPLIES_PER_THREAD && made < opts.total; r += 1) {
      emu.network.addComment({
        channelId: channel.id,
        parentId: top.id,
        author: { channelId: `UCbench${(thread + r + 1) % 1000}`, name: `@viewer${(thread + r + 1) % 1000}` },
        text: `Reply ${r} to ${thread}`,
        at: new Date(from + made * 100),
      });
      made += 1;
    }
  }
  // The cursor from before the comments: the round must take them all.
  const cursor = JSON.stringify({ at: new Date(from - 1_000).toISOString(), ids: [] });
  await deps.db.update(objects).set({ pollCursor: cursor }).where(eq(objects.id, objectId));

  const round = async () => {
    const [row] = await deps.db.select().from(objects).where(eq(objects.id, objectId));
    const controller = new AbortController();
    const result = await youtubeConnector.poll!(connectorContext(deps, row!), row!.pollCursor, {
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
    comments: first.events.length,
    stored,
    roundMs,
    perSecond: first.events.length / (roundMs / 1000),
    units: first.units ?? 0,
    secondRoundEvents: second.events.length,
  };
}
