// Socket fan-out benchmark (`npm run bench -- sockets`, issue 22 "Speed"). The real app (createRuntime:
// Fastify, the hub, the bus, access from the database) listening on 127.0.0.1, on PostgreSQL when
// DATABASE_URL is set, otherwise on an in-memory PGlite. Operators connect over real WebSockets from
// worker threads (bench/socket-clients.mjs), so reading the sockets does not share the server's loop.
//
// 1. Spread: CLIENTS operators (2,000) in SPACES spaces (50), RATE `items.created` events a second (500)
//    for SECONDS (10), each to a random space, published on the app's bus as the ingestion pipeline does
//    after commit (the row is a real presented comment, from an ingest of the warm-up). Target: delivery
//    p99 ≤ 100 ms; every client receives its space's events and no other space's.
// 2. Big space: BIG_CLIENTS operators (2,000) in one space, BIG_RATE new comments a second (40) for
//    BIG_SECONDS (10) through the real ingestion (ingest(): store, present, publish). Target: p99 ≤ 500 ms.
//
// Delivery time is publish → receipt: the bus's publish call (wrapped here) to the client's message
// event, both on the shared clock (performance.timeOrigin + now). Bytes per push: the message's size as
// one client receives it. Every loop is bounded; an undelivered push shows as a shortfall, not a hang.
// Shrink it with the environment: SOCKET_BENCH_CLIENTS, SOCKET_BENCH_SPACES, SOCKET_BENCH_RATE,
// SOCKET_BENCH_SECONDS, SOCKET_BENCH_BIG_CLIENTS, SOCKET_BENCH_BIG_RATE, SOCKET_BENCH_BIG_SECONDS,
// SOCKET_BENCH_WORKERS (client threads, 2).
//
// SOCKET_BENCH_NODES=2 (with DATABASE_URL and REDIS_URL): the scaled-out shape — a second app node is
// started as its own process (`apps/server/src/main.ts`, as `npm start` runs it) on the same database and
// Redis, and the client threads split between the two nodes (thread w on node w % 2), so each space's
// operators sit on both; events are published on the first node and reach the second through Redis.
//
//   npm run bench -- sockets
//   DATABASE_URL=… REDIS_URL=redis://127.0.0.1:6379 SOCKET_BENCH_NODES=2 npm run bench -- sockets
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { type PushedItem, presetFor, WEB_CLIENT_ID } from '@otklik/shared';
import { openDatabase } from '../apps/server/src/db/client';
import { objects } from '../apps/server/src/db/schema';
import { testConfig } from '../apps/server/src/lib/config';
import { issueTokens } from '../apps/server/src/modules/auth/tokens';
import { ingest, type ObjectRow } from '../apps/server/src/modules/inbox/ingest/ingest';
import { createTrialSpace } from '../apps/server/src/modules/spaces/service';
import type { PublishedEvent } from '../apps/server/src/realtime/bus';
import { createRuntime } from '../apps/server/src/runtime';
import { ensureDatabase } from './seed-inbox';

const env = (name: string, fallback: number) => Number(process.env[`SOCKET_BENCH_${name}`] ?? fallback);
const CLIENTS = env('CLIENTS', 2_000);
const SPACES = Math.min(env('SPACES', 50), CLIENTS);
const RATE = env('RATE', 500);
const SECONDS = env('SECONDS', 10);
const BIG_CLIENTS = env('BIG_CLIENTS', CLIENTS);
const BIG_RATE = env('BIG_RATE', 40);
const BIG_SECONDS = env('BIG_SECONDS', SECONDS);
const WORKERS = Math.max(1, env('WORKERS', 2));
const NODES = env('NODES', 1);
const REDIS_URL = process.env.REDIS_URL;
const TARGET_SPREAD_P99_MS = 100;
const TARGET_BIG_P99_MS = 500;
/** How long after the last publish the clients may take to receive the rest. */
const DRAIN_MS = 60_000;

const url = process.env.DATABASE_URL;
/** What both nodes run with (the second reads it from its environment, as a deployed node would). */
const BENCH_NODE_ENV = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'error',
  SECRET_KEY: 'bench-sockets-secret-0123456789abcdef0123456789',
  APP_URL: 'http://127.0.0.1:3000',
  FIRST_SPACE_TARIFF_ID: '0',
} as const;
const now = () => performance.timeOrigin + performance.now();
const pct = (sorted: Float64Array | number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
const verdict = (pass: boolean) => (pass ? 'PASS' : 'MISS');
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Client {
  token: string;
  spaceId: number;
}
interface Receipts {
  keys: Float64Array;
  times: Float64Array;
  bytes: number;
  received: number;
  leaks: number;
  other: number;
  closed: number;
}

/** Asks a worker one thing and waits for its answer. */
function ask<T>(worker: Worker, message: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const done = (answer: T) => {
      worker.off('error', fail);
      resolve(answer);
    };
    const fail = (error: Error) => {
      worker.off('message', done);
      reject(error);
    };
    worker.once('message', done);
    worker.once('error', fail);
    worker.postMessage(message);
  });
}

/** The second node: `main.ts` in a process of its own on the same database and Redis; its WebSocket URL. */
async function startSecondNode(databaseUrl: string, redisUrl: string, dataDir: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    env: {
      ...process.env,
      ...BENCH_NODE_ENV,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the second node did not start:\n${output}`)), 120_000);
    const read = (chunk: Buffer) => {
      output += chunk;
      const found = /running on http:\/\/localhost:(\d+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(Number(found[1]));
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the second node exited (${code}):\n${output}`));
    });
  });
  return {
    wsUrl: `ws://127.0.0.1:${port}/v1/ws`,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.removeAllListeners('exit');
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function main() {
  if (NODES !== 1 && (NODES !== 2 || !url || !REDIS_URL))
    throw new Error(
      'SOCKET_BENCH_NODES=2 needs DATABASE_URL and REDIS_URL (the nodes share them); 1 or 2 nodes.',
    );
  if (url) await ensureDatabase(url);
  const database = await openDatabase(url ? { url } : { inMemory: true });
  const { db, query } = database;
  console.log(
    `database: ${url ? 'PostgreSQL' : 'PGlite (in memory)'}; machine: load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${cpus().length} cores`,
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'otklik-bench-sockets-'));
  const quiet = new Writable({ write: (_chunk, _enc, done) => done() });
  const scaledOut = NODES === 2 && url && REDIS_URL ? { url, redis: REDIS_URL } : null;
  const runtime = await createRuntime(
    testConfig({
      ...BENCH_NODE_ENV,
      DATA_DIR: dataDir,
      ...(scaledOut ? { REDIS_URL: scaledOut.redis } : {}),
    }),
    {
      database,
      logStream: quiet,
      startBackground: false,
    },
  );
  await runtime.app.listen({ port: 0, host: '127.0.0.1' });
  const wsUrls = [`ws://127.0.0.1:${(runtime.app.server.address() as AddressInfo).port}/v1/ws`];
  const secondDir = scaledOut ? mkdtempSync(join(tmpdir(), 'otklik-bench-sockets-2-')) : null;
  const second = scaledOut ? await startSecondNode(scaledOut.url, scaledOut.redis, secondDir!) : null;
  if (second) {
    wsUrls.push(second.wsUrl);
    console.log(
      `nodes: 2 over Redis (this process and ${second.wsUrl.replace('/v1/ws', '')}); client threads split between them`,
    );
  }
  const bus = runtime.deps.bus;

  // Publish times by event key (the first row's id), taken as the bus is handed the event.
  const sentAt = new Map<number, number>();
  const publish = bus.publish.bind(bus);
  bus.publish = (event: PublishedEvent) => {
    if (event.type === 'items.created' && event.payload.items[0])
      sentAt.set(event.payload.items[0].id, now());
    return publish(event);
  };

  const operator = JSON.stringify(presetFor('operator'));
  /** `count` operators in `spaces` spaces, one sandbox account each, each signed in. */
  async function seed(tag: string, count: number, spaces: number) {
    const { rows } = await query<{ id: number }>(
      `INSERT INTO users (name, email, password_hash, email_status)
       SELECT 'Bench operator ' || g, 'bench-sockets-${tag}-${Date.now()}-' || g || '@example.test', 'x', 1
       FROM generate_series(1, $1) AS g ORDER BY g RETURNING id`,
      [count],
    );
    const userIds = rows.map((r) => Number(r.id));
    const clients: Client[] = [];
    const accounts: ObjectRow[] = [];
    const per = Math.ceil(count / spaces);
    for (let s = 0; s < spaces; s++) {
      const members = userIds.slice(s * per, (s + 1) * per);
      if (members.length === 0) break;
      const space = await createTrialSpace(db, {
        name: `Bench sockets ${tag} ${s + 1}`,
        ownerId: members[0]!,
      });
      const [account] = await db
        .insert(objects)
        .values({ spaceId: space.id, provider: 'sandbox', name: 'Отзывы', settings: {} })
        .returning();
      accounts.push(account!);
      await query(
        `INSERT INTO memberships (space_id, user_id, roles)
         SELECT $1, u, $2::jsonb FROM unnest($3::int[]) AS m(u) ON CONFLICT DO NOTHING`,
        [space.id, operator, members],
      );
      for (const userId of members) {
        const tokens = await issueTokens(db, userId, { clientId: WEB_CLIENT_ID });
        clients.push({ token: tokens.access_token, spaceId: space.id });
      }
    }
    return { clients, accounts };
  }

  /** Opens the clients' sockets from the worker threads. */
  async function connect(clients: Client[]) {
    const workers = Array.from({ length: WORKERS }, (_, w) => {
      const mine = clients.filter((_c, i) => i % WORKERS === w);
      return new Worker(new URL('./socket-clients.mjs', import.meta.url), {
        workerData: { url: wsUrls[w % wsUrls.length], clients: mine },
      });
    });
    const started = performance.now();
    const opened = await Promise.all(
      workers.map((w) => ask<{ ready: number; failed: number }>(w, 'connect')),
    );
    const failed = opened.reduce((sum, o) => sum + o.failed, 0);
    console.log(
      `  ${clients.length - failed} of ${clients.length} sockets open in ${((performance.now() - started) / 1000).toFixed(1)} s` +
        (failed ? ` (${failed} handshakes failed three times: their pushes count as undelivered)` : ''),
    );
    return workers;
  }

  /** Waits (bounded) until the clients hold `expected` pushes, then collects the receipts. */
  async function collect(workers: Worker[], expected: number) {
    const deadline = performance.now() + DRAIN_MS;
    for (;;) {
      const counts = await Promise.all(workers.map((w) => ask<{ received: number }>(w, 'count')));
      if (counts.reduce((sum, c) => sum + c.received, 0) >= expected || performance.now() > deadline) break;
      await delay(100);
    }
    const receipts = await Promise.all(workers.map((w) => ask<Receipts>(w, 'finish')));
    await Promise.all(workers.map((w) => w.terminate()));
    return receipts;
  }

  function report(name: string, receipts: Receipts[], expected: number, pushes: number, target: number) {
    const latencies: number[] = [];
    let missingKey = 0;
    for (const r of receipts)
      for (let i = 0; i < r.keys.length; i++) {
        const sent = sentAt.get(r.keys[i]!);
        if (sent === undefined) missingKey += 1;
        else latencies.push(r.times[i]! - sent);
      }
    latencies.sort((a, b) => a - b);
    const received = receipts.reduce((sum, r) => sum + r.received, 0);
    const bytes = receipts.reduce((sum, r) => sum + r.bytes, 0);
    const leaks = receipts.reduce((sum, r) => sum + r.leaks, 0);
    const closed = receipts.reduce((sum, r) => sum + r.closed, 0);
    const p99 = pct(latencies, 0.99);
    console.log(
      `  ${name}: ${pushes} events, ${received} of ${expected} deliveries (${((received / expected) * 100).toFixed(2)} %), ` +
        `${leaks} to another space, ${missingKey} unmatched, ${closed} sockets closed by the server meanwhile`,
    );
    console.log(
      `  delivery publish → receipt: p50 ${pct(latencies, 0.5).toFixed(1)} ms, p95 ${pct(latencies, 0.95).toFixed(1)} ms, ` +
        `p99 ${p99.toFixed(1)} ms, max ${(latencies.at(-1) ?? Number.NaN).toFixed(1)} ms — target p99 ≤ ${target} ms: ${verdict(p99 <= target)}`,
    );
    console.log(
      `  bytes per push per client: ${(bytes / Math.max(received, 1)).toFixed(0)} B; ` +
        `${(bytes / 1e6).toFixed(1)} MB in all; isolation (no other space's event): ${verdict(leaks === 0)}; ` +
        `every delivery arrived: ${verdict(received === expected)}`,
    );
    return { p99, leaks, received };
  }

  let failed = false;

  // 1. Spread: many spaces, synthetic pushes of a real presented comment at RATE a second.
  {
    console.log(`\n1. spread: ${CLIENTS} operators in ${SPACES} spaces, ${RATE} events/s for ${SECONDS} s`);
    const { clients, accounts } = await seed('spread', CLIENTS, SPACES);
    // One real comment through the pipeline: its presented row is what the pushes carry.
    let template: PushedItem | undefined;
    const off = bus.subscribe((event) => {
      if (event.type === 'items.created') template ??= (event.payload.items as PushedItem[])[0];
    });
    await ingest({ db, bus }, accounts[0]!, [commentEvent(0)]);
    // Over Redis the event comes back to this node's subscribers a moment after the publish (bounded).
    for (let waited = 0; !template && waited < 5_000; waited += 20) await delay(20);
    off();
    if (!template) throw new Error('the warm-up ingest published no items.created');
    const members = new Map<number, number>();
    for (const c of clients) members.set(c.spaceId, (members.get(c.spaceId) ?? 0) + 1);
    const workers = await connect(clients);
    const total = RATE * SECONDS;
    let expected = 0;
    const started = performance.now();
    for (let sent = 0; sent < total; ) {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * RATE));
      for (; sent < due; sent++) {
        const account = accounts[sent % accounts.length]!;
        const id = 1_000_000_000 + sent;
        expected += members.get(account.spaceId) ?? 0;
        void bus.publish({
          type: 'items.created',
          spaceId: account.spaceId,
          payload: {
            object_id: account.id,
            items: [{ ...template, id, space_id: account.spaceId, object_id: account.id }],
          },
        });
      }
      await delay(5);
    }
    const spent = (performance.now() - started) / 1000;
    console.log(`  published ${total} events in ${spent.toFixed(1)} s (${(total / spent).toFixed(0)}/s)`);
    const result = report('spread', await collect(workers, expected), expected, total, TARGET_SPREAD_P99_MS);
    failed ||= result.leaks > 0;
  }

  // 2. One big space: real comments through the ingestion pipeline at BIG_RATE a second.
  {
    console.log(
      `\n2. big space: ${BIG_CLIENTS} operators in one space, ${BIG_RATE} new items/s for ${BIG_SECONDS} s`,
    );
    const { clients, accounts } = await seed('big', BIG_CLIENTS, 1);
    const workers = await connect(clients);
    const total = BIG_RATE * BIG_SECONDS;
    const started = performance.now();
    let slowest = 0;
    for (let sent = 0; sent < total; ) {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * BIG_RATE));
      for (; sent < due; sent++) {
        const t0 = performance.now();
        await ingest({ db, bus }, accounts[0]!, [commentEvent(sent + 1)]);
        slowest = Math.max(slowest, performance.now() - t0);
      }
      await delay(5);
    }
    const spent = (performance.now() - started) / 1000;
    console.log(
      `  ingested ${total} comments in ${spent.toFixed(1)} s (${(total / spent).toFixed(1)}/s; slowest ingest ${slowest.toFixed(0)} ms)`,
    );
    const expected = total * clients.length;
    const result = report('big space', await collect(workers, expected), expected, total, TARGET_BIG_P99_MS);
    failed ||= result.leaks > 0;
  }

  await second?.stop();
  await runtime.close();
  await database.close().catch(() => {});
  rmSync(dataDir, { recursive: true, force: true });
  if (secondDir) rmSync(secondDir, { recursive: true, force: true });
  if (failed) {
    console.error('A client received another space’s event.');
    process.exit(1);
  }
}

function commentEvent(n: number) {
  return {
    type: 'item',
    kind: 'comment',
    externalId: `bench-sockets-${Date.now()}-${n}`,
    post: { externalId: 'post-1', text: 'Наш пост о доставке', postedAt: new Date() },
    author: { externalId: `author-${n % 50}`, name: `Покупатель ${n % 50}` },
    text: `Здравствуйте! Вопрос о доставке заказа номер ${n}: когда придёт курьер?`,
    createdAt: new Date(),
  };
}

await main();
process.exit(0);
