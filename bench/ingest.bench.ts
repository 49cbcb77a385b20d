// Webhook ingestion benchmark (`npm run bench -- ingest`): the real app (createRuntime on PostgreSQL,
// listening on 127.0.0.1, PROVIDER_UPDATES=webhook) with Telegram accounts connected against the
// Telegram emulator, VK communities against the VK emulator (in a worker thread, since VK webhooks
// ask it for authors' names) and Facebook Pages against the Meta emulator (Messenger messages on the
// app-wide callback, signed). A worker thread (bench/webhook-load.mjs) fires N webhook POSTs with
// distinct update ids, 32 in flight, capped at 60 s; every 100th goes to a probe account whose chats
// a side loop looks for in GET /v1/chats, which gives receipt → visible-in-the-list latency. Beside it,
// the polled and gateway networks (a YouTube round of 10,000 comments, an X round of 500 mentions, 2,000
// Discord gateway messages) and the pipeline alone: ingest() with batches of 500 from the same run.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/otklik_bench npm run bench -- ingest
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { WEB_CLIENT_ID } from '@otklik/shared';
import { eq, inArray } from 'drizzle-orm';
import { startTelegramEmulator } from '../apps/server/emulators/telegram/emulator';
import { objects } from '../apps/server/src/db/schema';
import { loadConfig } from '../apps/server/src/lib/config';
import { hashPassword } from '../apps/server/src/modules/auth/passwords';
import { ingest } from '../apps/server/src/modules/inbox/ingest/ingest';
import { createTrialSpace } from '../apps/server/src/modules/spaces/service';
import { openCredentials } from '../apps/server/src/providers/context';
import { updateToEvents } from '../apps/server/src/providers/telegram/mapping';
import { createRuntime } from '../apps/server/src/runtime';
import { benchDiscordGateway, startDiscordBench } from './discord-gateway';
import { connectFacebookPage, startFacebookBench } from './facebook-hooks';
import { mainThreadCpu, procCpu, profiled, shouldProfile } from './profile';
import { ensureDatabase } from './seed-inbox';
import { benchTwitterPoll, startTwitterBench } from './twitter-poll';
import { benchYouTubePoll, startYouTubeBench } from './youtube-poll';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 20_000);
const CONCURRENCY = 32;
const MAX_MS = 60_000;
const PROBE_EVERY = 100;
const CUSTOMERS = 1_000;
/** How often the probe account's chats are listed (BENCH_POLL_MS: rarer, to compare CPU per event on a busy machine). */
const POLL_MS = Number(process.env.BENCH_POLL_MS ?? 20);
const DIRECT_BATCHES = 20;
const DIRECT_BATCH = 500;
const TARGET_RATE = 1_500;
const TARGET_P95_MS = 250;
const YOUTUBE_COMMENTS = Number(process.env.BENCH_YOUTUBE_COMMENTS ?? 10_000);
/** X: one round reads at most 5 pages of 100 mentions. */
const TWITTER_MENTIONS = 500;
const DISCORD_MESSAGES = 2_000;
const here = fileURLToPath(new URL('.', import.meta.url));
const hasVk = existsSync(join(here, '../apps/server/src/providers/vk/connector.ts'));
/** `BENCH_INGEST_PHASES=facebook,direct`: only these phases (telegram, vk, facebook, youtube, x, discord, direct). */
const only = (process.env.BENCH_INGEST_PHASES ?? '')
  .split(',')
  .map((p) => p.trim())
  .filter(Boolean);
const runs = (phase: string) => only.length === 0 || only.includes(phase);

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
const verdict = (pass: boolean) => (pass ? 'PASS' : 'MISS');

/**
 * CPU seconds used so far by this process's main thread (the app and the emulators), by the whole
 * process (with the load generator's thread) and by the PostgreSQL backends of the benchmark's database
 * (from /proc: Linux, server on this machine; NaN otherwise). On a shared machine CPU per event varies
 * far less than events per second.
 */
async function cpuNow(query: (sql: string) => Promise<{ rows: Array<{ pid: number }> }>) {
  const own = process.cpuUsage();
  let main = Number.NaN;
  let pg = Number.NaN;
  try {
    main = mainThreadCpu();
    const { rows } = await query('SELECT pid FROM pg_stat_activity WHERE datname = current_database()');
    pg = rows.reduce((sum, { pid }) => sum + procCpu(`/proc/${pid}/stat`), 0);
  } catch {
    // No /proc, or PostgreSQL on another machine: that share stays unknown.
  }
  return { process: (own.user + own.system) / 1e6, main, pg };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function startVkEmulator(): Promise<{
  worker: Worker;
  env: Record<string, string>;
  communities: Array<{ groupId: number; token: string }>;
}> {
  const worker = new Worker(new URL('./vk-emulator-worker.mjs', import.meta.url), {
    workerData: { communities: 2 },
  });
  return new Promise((resolve, reject) => {
    worker.once('message', (m) => resolve({ worker, ...m }));
    worker.once('error', reject);
  });
}

interface LoadResult {
  latencies: number[];
  errors: number;
  firstError: string | null;
  elapsedMs: number;
  probes: Array<{ chat: string; startedAt: number }>;
}

function runLoad(workerData: Record<string, unknown>): Promise<LoadResult> {
  const worker = new Worker(new URL('./webhook-load.mjs', import.meta.url), { workerData });
  return new Promise((resolve, reject) => {
    worker.once('message', (m: LoadResult) => {
      void worker.terminate();
      resolve(m);
    });
    worker.once('error', reject);
  });
}

async function main() {
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/otklik_bench';
  await ensureDatabase(url);
  const tg = await startTelegramEmulator();
  const vk = hasVk ? await startVkEmulator() : null;
  const yt = await startYouTubeBench();
  const xb = await startTwitterBench();
  const dc = await startDiscordBench();
  const fb = await startFacebookBench();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: url,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(port),
    APP_URL: base,
    SECRET_KEY: 'bench-secret-key-0123456789abcdef0123456789',
    PROVIDER_UPDATES: 'webhook',
    TELEGRAM_API_URL: tg.url,
    ...(vk?.env ?? {}),
    ...yt.env,
    ...xb.env,
    ...dc.env,
    ...fb.env,
  });
  const runtime = await createRuntime(config, { startBackground: false });
  const { db, query } = runtime.deps.database;
  const created: number[] = [];
  try {
    await runtime.app.listen({ port, host: '127.0.0.1' });
    console.log(
      `machine: load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} on ${cpus().length} cores`,
    );
    // An operator with a paid, unlimited space of its own.
    const email = `bench-ingest-${randomUUID().slice(0, 8)}@example.test`;
    const { rows } = await query<{ id: number }>(
      `INSERT INTO users (name, email, password_hash, email_status) VALUES ('Bench Ingest', $1, $2, 1) RETURNING id`,
      [email, await hashPassword('Bench-pass1')],
    );
    const space = await createTrialSpace(db, { name: 'Bench ingest', ownerId: Number(rows[0]!.id) });
    await query(
      `UPDATE spaces SET is_trial = false, tariff_id = 20, expires_at = now() + interval '10 years' WHERE id = $1`,
      [space.id],
    );
    const login = await fetch(`${base}/v1/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'password',
        client_id: WEB_CLIENT_ID,
        client_secret: config.WEB_CLIENT_SECRET,
        username: email,
        password: 'Bench-pass1',
      }),
    });
    if (!login.ok) throw new Error(`login failed: ${login.status} ${await login.text()}`);
    const auth = {
      authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}`,
    };

    const connect = async (provider: string, credentials: Record<string, string>) => {
      const res = await fetch(`${base}/v1/objects`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ provider, credentials }),
      });
      if (!res.ok) throw new Error(`connect ${provider} failed: ${res.status} ${await res.text()}`);
      const id = ((await res.json()) as { id: number }).id;
      created.push(id);
      const [row] = await db.select().from(objects).where(eq(objects.id, id));
      return { id, row: row!, secret: openCredentials(runtime.deps.sealer, row!).webhook_secret! };
    };
    const telegramBot = async () => {
      const id = 6_000_000_000 + Math.floor(Math.random() * 1e8);
      const token = `${id}:AAbench${randomUUID().replace(/-/g, '')}`;
      tg.addBot(token, { id, first_name: 'Bench Bot', username: `bench${id}_bot` });
      return connect('telegram', { bot_token: token });
    };

    /** One webhook phase: the load from the worker, and the probe account's chats watched in the list API. */
    const phase = async (
      name: string,
      kind: 'telegram' | 'vk' | 'facebook',
      main: { url: string; secret: string; groupId?: number; pageId?: string },
      probe: typeof main & { id: number },
      firstId: number,
    ) => {
      const seen = new Map<string, number>();
      let polling = true;
      const poller = (async () => {
        while (polling) {
          const res = await fetch(`${base}/v1/chats?object_id=${probe.id}&limit=100`, { headers: auth });
          const page = (await res.json()) as { items: Array<{ external_id: string }> };
          const at = performance.timeOrigin + performance.now();
          for (const c of page.items) if (!seen.has(c.external_id)) seen.set(c.external_id, at);
          await new Promise((r) => setTimeout(r, POLL_MS));
        }
      })();
      const cpuBefore = await cpuNow(query);
      const workload = () =>
        runLoad({
          kind,
          targets: { main, probe },
          requests: EVENTS,
          concurrency: CONCURRENCY,
          maxMs: MAX_MS,
          probeEvery: PROBE_EVERY,
          firstId,
          customers: CUSTOMERS,
        });
      const load = shouldProfile(name) ? await profiled(name, workload) : await workload();
      const deadline = Date.now() + 5_000;
      while (load.probes.some((p) => !seen.has(p.chat)) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, POLL_MS));
      polling = false;
      await poller;
      const cpuAfter = await cpuNow(query);
      const sent = load.latencies.length;
      const rate = (sent - load.errors) / (load.elapsedMs / 1000);
      const http = [...load.latencies].sort((a, b) => a - b);
      const visible = load.probes
        .map((p) => (seen.get(p.chat) ?? Number.POSITIVE_INFINITY) - p.startedAt)
        .sort((a, b) => a - b);
      const p95 = pct(visible, 0.95);
      console.log(
        `\n${name}: ${sent} webhook POSTs in ${(load.elapsedMs / 1000).toFixed(1)} s, ${load.errors} errors${load.firstError ? ` (first: ${load.firstError})` : ''}`,
      );
      console.log(
        `  webhook answer: p50 ${pct(http, 0.5).toFixed(1)} ms, p95 ${pct(http, 0.95).toFixed(1)} ms, p99 ${pct(http, 0.99).toFixed(1)} ms`,
      );
      const perEvent = (seconds: number) => `${((seconds * 1000) / sent).toFixed(3)} ms`;
      console.log(
        `  CPU per event: app (main thread) ${perEvent(cpuAfter.main - cpuBefore.main)}, whole process with the load generator ${perEvent(cpuAfter.process - cpuBefore.process)}, PostgreSQL ${perEvent(cpuAfter.pg - cpuBefore.pg)} (machine load ${loadavg()[0]!.toFixed(1)})`,
      );
      console.log(
        `${verdict(rate >= TARGET_RATE)}  ${name} events/s at the webhook`.padEnd(60),
        `${rate.toFixed(0)} /s`.padEnd(16),
        `target ≥ ${TARGET_RATE}`,
      );
      console.log(
        `${verdict(p95 <= TARGET_P95_MS)}  ${name} receipt → visible in GET /v1/chats, p95`.padEnd(60),
        `${p95.toFixed(0)} ms`.padEnd(16),
        `target ≤ ${TARGET_P95_MS} ms (p50 ${pct(visible, 0.5).toFixed(0)} ms, ${visible.length} probes, list polled every ~${POLL_MS} ms)`,
      );
      return { rate, p95 };
    };

    if (runs('telegram')) {
      const tgMain = await telegramBot();
      const tgProbe = await telegramBot();
      const hook = (id: number) => `${base}/v1/webhooks/telegram/${id}`;
      await phase(
        'Telegram',
        'telegram',
        { url: hook(tgMain.id), secret: tgMain.secret },
        { id: tgProbe.id, url: hook(tgProbe.id), secret: tgProbe.secret },
        1_000_000,
      );
    }

    if (vk && runs('vk')) {
      const [a, b] = vk.communities;
      const vkMain = await connect('vk', { group_id: String(a!.groupId), access_token: a!.token });
      const vkProbe = await connect('vk', { group_id: String(b!.groupId), access_token: b!.token });
      const { callbackSecret } = await import('../apps/server/src/providers/vk/client');
      const vhook = (id: number) => `${base}/v1/webhooks/vk/${id}`;
      await phase(
        'VK',
        'vk',
        { url: vhook(vkMain.id), secret: callbackSecret(vkMain.secret), groupId: a!.groupId },
        {
          id: vkProbe.id,
          url: vhook(vkProbe.id),
          secret: callbackSecret(vkProbe.secret),
          groupId: b!.groupId,
        },
        2_000_000,
      );
    } else if (!vk)
      console.log('\nVK: no connector at apps/server/src/providers/vk/ — measured Telegram only.');

    if (runs('facebook')) {
      // Facebook: Messenger messages of two Pages through the app's one webhook callback, each signed.
      const fbMain = await connectFacebookPage({
        emu: fb.emu,
        base,
        auth,
        appUrl: config.appUrl,
        name: 'Bench Page',
        created,
      });
      const fbProbe = await connectFacebookPage({
        emu: fb.emu,
        base,
        auth,
        appUrl: config.appUrl,
        name: 'Bench probe Page',
        created,
      });
      const fbHook = `${base}/v1/webhooks/facebook/app`;
      const appSecret = fb.env.FACEBOOK_CLIENT_SECRET!;
      await phase(
        'Facebook',
        'facebook',
        { url: fbHook, secret: appSecret, pageId: fbMain.pageId },
        { id: fbProbe.id, url: fbHook, secret: appSecret, pageId: fbProbe.pageId },
        3_000_000,
      );
    }

    if (runs('youtube')) {
      // YouTube has no webhooks: one polling round over a channel with 10,000 comments waiting.
      const ytFigures = await benchYouTubePoll({
        emu: yt.emu,
        base,
        auth,
        appUrl: config.appUrl,
        deps: { db, bus: runtime.deps.bus, sealer: runtime.deps.sealer, config },
        total: YOUTUBE_COMMENTS,
        created,
      });
      console.log(
        `\nYouTube: one poll round took ${ytFigures.comments} comments (${ytFigures.stored} stored) in ${(ytFigures.roundMs / 1000).toFixed(1)} s, ${ytFigures.units} quota units; the next round found ${ytFigures.secondRoundEvents}`,
      );
      console.log(
        `  ·   YouTube poll of ${YOUTUBE_COMMENTS} comments`.padEnd(60),
        `${ytFigures.perSecond.toFixed(0)} /s`,
      );
    }

    if (runs('x')) {
      // X: one polling round over an account with 500 new mentions (5 pages with since_id).
      const xFigures = await benchTwitterPoll({
        emu: xb.emu,
        base,
        auth,
        appUrl: config.appUrl,
        deps: { db, bus: runtime.deps.bus, sealer: runtime.deps.sealer, config },
        total: TWITTER_MENTIONS,
        created,
      });
      console.log(
        `\nX: one poll round took ${xFigures.mentions} mentions (${xFigures.stored} stored) in ${(xFigures.roundMs / 1000).toFixed(1)} s; the next round found ${xFigures.secondRoundEvents}`,
      );
      console.log(
        `  ·   X poll of ${TWITTER_MENTIONS} mentions`.padEnd(60),
        `${xFigures.perSecond.toFixed(0)} /s`,
      );
    }

    if (runs('discord')) {
      // Discord: a bot's gateway websocket held by the polling manager; messages dispatched as fast as the
      // socket takes them, timed until each is a stored comment.
      const dcFigures = await benchDiscordGateway({
        emu: dc.emu,
        base,
        auth,
        spaceId: space.id,
        deps: { db, bus: runtime.deps.bus, sealer: runtime.deps.sealer, config, log: runtime.deps.log },
        total: DISCORD_MESSAGES,
        created,
      });
      console.log(
        `\nDiscord: ${dcFigures.messages} gateway messages stored (${dcFigures.stored} items) in ${(dcFigures.ms / 1000).toFixed(1)} s`,
      );
      console.log(
        `  ·   Discord gateway, ${DISCORD_MESSAGES} messages`.padEnd(60),
        `${dcFigures.perSecond.toFixed(0)} /s`,
      );
    }

    if (runs('direct')) {
      // The pipeline alone: the same Telegram updates mapped and stored with ingest() in batches of 500.
      const direct = await telegramBot();
      const batches = Array.from({ length: DIRECT_BATCHES }, (_, b) =>
        Array.from({ length: DIRECT_BATCH }, (_, i) => {
          const id = 3_000_000 + b * DIRECT_BATCH + i;
          const chatId = 100_000_000 + (id % CUSTOMERS);
          return updateToEvents({
            update_id: id,
            message: {
              message_id: id,
              from: { id: chatId, is_bot: false, first_name: 'Bench' },
              chat: { id: chatId, type: 'private' },
              date: Math.floor(Date.now() / 1000),
              text: `Direct ${id}`,
            },
          })[0]!;
        }),
      );
      const t0 = performance.now();
      for (const batch of batches) await ingest({ db, bus: runtime.deps.bus }, direct.row, batch);
      const directRate = (DIRECT_BATCHES * DIRECT_BATCH) / ((performance.now() - t0) / 1000);
      console.log(
        `\n  ·   pipeline alone: ingest() ${DIRECT_BATCHES} × ${DIRECT_BATCH} Telegram messages`.padEnd(60),
        `${directRate.toFixed(0)} /s`,
      );
    }
  } finally {
    if (created.length > 0) await db.delete(objects).where(inArray(objects.id, created));
    await runtime.close();
    await tg.close();
    await vk?.worker.terminate();
    await yt.emu.close();
    await xb.emu.close();
    await dc.emu.close();
    await fb.emu.close();
  }
}

await main();
