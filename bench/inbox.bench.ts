// Inbox benchmark (`npm run bench -- inbox`): the real app (createRuntime on PostgreSQL, listening on
// 127.0.0.1) against a space of 1,000,000 items and 200,000 chats (bench/seed-inbox.ts seeds it once).
// Every figure is measured in this run beside its baseline from the same run: HTTP endpoints beside
// the trivial /healthz, ingestion through the full pipeline beside a raw batched INSERT.
//
// Load: a fixed number of requests with a fixed concurrency (8) from a worker thread (bench/http-load.mjs),
// each phase capped in time. The default list is measured twice: as served (list pages are reused while
// the database snapshot is unchanged, lib/snapshot-cache.ts) and with reuse off, where every
// request runs its statement; all other phases run with reuse off. Plans of the hot queries (EXPLAIN ANALYZE) go to
// bench/results/inbox-explain.txt.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/otklik_bench npm run bench -- inbox
//   BENCH_PROFILE='every request reads' …  # a CPU profile of the server during that phase (bench/profile.ts)
//                                                         # for the schema, undone after the run
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { WEB_CLIENT_ID } from '@otklik/shared';
import { eq, type SQLWrapper, sql } from 'drizzle-orm';
import pg from 'pg';
import { objects, users } from '../apps/server/src/db/schema';
import { loadConfig } from '../apps/server/src/lib/config';
import { ingest } from '../apps/server/src/modules/inbox/ingest/ingest';
import { chatListQuery, itemListQuery } from '../apps/server/src/modules/inbox/read/list-params';
import {
  chatPageSql,
  itemPageSql,
  searchItemsQuery,
  searchMessagesQuery,
} from '../apps/server/src/modules/inbox/read/queries';
import { scopeFor } from '../apps/server/src/modules/inbox/read/scope';
import { loadActor } from '../apps/server/src/modules/spaces/actor';
import { createRuntime, type Runtime } from '../apps/server/src/runtime';
import { mainThreadCpu, profiled, shouldProfile } from './profile';
import { BENCH_DATABASE_URL, BENCH_EMAIL, BENCH_PASSWORD, type SeededInbox, seedInbox } from './seed-inbox';

const CONCURRENCY = 8;
const REQUESTS = 2_000;
const PHASE_MAX_MS = 20_000;
const WARMUP_REQUESTS = 100;
const INGEST_BATCHES = 20;
const INGEST_BATCH_SIZE = 500;
/**
 * `BENCH_INGEST_BREAKDOWN=1`: where the ingestion phase's time goes, statement by statement — each
 * statement's wall time from the app's side (sent → answered; the batches run one at a time, so this is
 * the database's work plus a round trip), summed by statement text; what the statements do not cover is
 * the app's own work between them.
 */
const BREAKDOWN = process.env.BENCH_INGEST_BREAKDOWN === '1';
const DAY_S = 86_400;

interface Measured {
  count: number;
  errors: number;
  p50: number;
  p95: number;
  p99: number;
  rps: number;
}

const results: Array<{ name: string; figure: string; target: string; pass: boolean | null }> = [];
const report = (name: string, figure: string, target: string, pass: boolean | null) => {
  results.push({ name, figure, target, pass });
  console.log(
    `${pass === null ? '  ·  ' : pass ? 'PASS ' : 'MISS '} ${name.padEnd(46)} ${figure.padEnd(44)} ${target}`,
  );
};

const quantile = (sorted: number[], q: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const ms = (v: number) => `${v.toFixed(1)} ms`;

/** `requests` GETs over `paths` from `concurrency` keep-alive connections in a worker thread. */
async function load(
  base: string,
  headers: Record<string, string>,
  paths: string[],
  opts: { requests?: number; maxMs?: number } = {},
): Promise<Measured> {
  const worker = new Worker(new URL('./http-load.mjs', import.meta.url), {
    workerData: {
      base,
      headers,
      paths,
      requests: opts.requests ?? REQUESTS,
      concurrency: CONCURRENCY,
      maxMs: opts.maxMs ?? PHASE_MAX_MS,
    },
  });
  const result = await new Promise<{
    latencies: number[];
    errors: number;
    firstError: string | null;
    elapsedMs: number;
  }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  if (result.firstError) console.log(`  first error: ${result.firstError}`);
  const sorted = result.latencies.sort((a, b) => a - b);
  return {
    count: sorted.length,
    errors: result.errors,
    p50: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    p99: quantile(sorted, 0.99),
    rps: (sorted.length / result.elapsedMs) * 1000,
  };
}

async function phase(
  base: string,
  headers: Record<string, string>,
  name: string,
  paths: string[],
): Promise<Measured> {
  await load(base, headers, paths, { requests: WARMUP_REQUESTS });
  // How busy the server's event loop was: near 100% means Node is the bottleneck, low means it waited
  // (on PostgreSQL, or for CPU taken by other processes).
  const before = performance.eventLoopUtilization();
  const cpuBefore = mainThreadCpu();
  const measure = () => load(base, headers, paths);
  const m = shouldProfile(name) ? await profiled(name, measure) : await measure();
  const busy = performance.eventLoopUtilization(before).utilization;
  // The app's CPU per request (its main thread, not the load generator's): steadier than req/s when
  // other work shares the machine.
  const cpuPerRequest = ((mainThreadCpu() - cpuBefore) * 1000) / Math.max(1, m.count);
  console.log(
    `  ${name}: ${m.count} requests${m.errors ? ` (${m.errors} errors)` : ''}, p50 ${ms(m.p50)}, p95 ${ms(m.p95)}, p99 ${ms(m.p99)}, ${m.rps.toFixed(0)} req/s, server loop ${(busy * 100).toFixed(0)}% busy, ${cpuPerRequest.toFixed(2)} ms CPU a request`,
  );
  return m;
}

async function explain(runtime: Runtime, title: string, query: SQLWrapper | null, out: string[]) {
  if (!query) return;
  const result = await runtime.deps.database.db.execute(sql`EXPLAIN (ANALYZE, BUFFERS) ${query}`);
  const rows = (result as unknown as { rows: Array<Record<string, string>> }).rows;
  const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
  const time = /Execution Time: ([\d.]+) ms/.exec(plan)?.[1];
  console.log(`  plan: ${title} — execution ${time ?? '?'} ms`);
  out.push(`=== ${title}\n${plan}\n`);
}

/** Searches people type: common words, rarer ones, phrases, and a word with a number. */
const WORDS = [
  'заказа',
  'доставку',
  'refund',
  'crashing',
  'курьер опоздал',
  'коробка',
  'Kazakhstan',
  'артикул 4242',
  'обслуживание',
  'collection',
];

const ANALYZE = ['ANALYZE items', 'ANALYZE messages'];

async function main() {
  const url = BENCH_DATABASE_URL;
  const seeded: SeededInbox = await seedInbox(url);
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: url,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: '0',
    SECRET_KEY: 'bench-secret-key-0123456789abcdef0123456789',
  });
  const runtime = await createRuntime(config, { startBackground: false });
  const database = runtime.deps.database;
  try {
    for (const statement of ANALYZE) {
      await database.query(statement);
    }
    // Other work on the machine shifts every figure; the ratios to the baselines less so.
    const machine = () =>
      `load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} on ${cpus().length} cores`;
    console.log(`machine: ${machine()}`);
    await runtime.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(runtime.app.server.address() as AddressInfo).port}`;
    const login = await fetch(`${base}/v1/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'password',
        client_id: WEB_CLIENT_ID,
        client_secret: config.WEB_CLIENT_SECRET,
        username: BENCH_EMAIL,
        password: BENCH_PASSWORD,
      }),
    });
    if (!login.ok) throw new Error(`login failed: ${login.status} ${await login.text()}`);
    const auth = {
      authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}`,
    };
    const now = Math.floor(Date.now() / 1000);
    const { objectIds, tagIds } = seeded;
    const rotate = <T>(count: number, make: (i: number) => T) =>
      Array.from({ length: count }, (_, i) => make(i));

    // Deeper pages of the default list, following the cursors a scrolling user follows.
    const cursors: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 19; page++) {
      const res: Response = await fetch(`${base}/v1/items${cursor ? `?before=${cursor}` : ''}`, {
        headers: auth,
      });
      cursor = ((await res.json()) as { next: string | null }).next;
      if (!cursor) break;
      cursors.push(cursor);
    }
    // Filters a team lead combines: one account, one tag, the last month / quarter / year.
    const filteredPaths = rotate(60, (i) => {
      const days = [30, 90, 365][i % 3]!;
      return `/v1/items?object_id=${objectIds[i % objectIds.length]}&tag_id=${tagIds[(i * 7) % tagIds.length]}&created_at_from=${now - days * DAY_S}&created_at_to=${now}`;
    });

    console.log(
      `\nHTTP, concurrency ${CONCURRENCY}, ${REQUESTS} requests per phase (capped at ${PHASE_MAX_MS / 1000} s):`,
    );
    const trivial = await phase(base, {}, 'GET /healthz (baseline)', ['/healthz']);
    // As served: a page is reused while the database snapshot is unchanged (lib/snapshot-cache.ts), and
    // this run writes nothing meanwhile — operators re-reading the queue between two changes.
    const list = await phase(base, auth, 'GET /v1/items (default, pages reused)', ['/v1/items']);
    // Every other phase turns reuse off, so each request runs its statement: the database's own speed.
    const pages = runtime.app.listPages;
    const keptBytes = pages.maxBytes;
    pages.maxBytes = 0;
    const cold = await phase(base, auth, 'GET /v1/items (default, every request reads)', ['/v1/items']);
    const deep = await phase(
      base,
      auth,
      'GET /v1/items (pages 2–20 by cursor)',
      cursors.map((c) => `/v1/items?before=${c}`),
    );
    const filtered = await phase(base, auth, 'GET /v1/items (object + tag + dates)', filteredPaths);
    const counts = await phase(base, auth, 'GET /v1/counts', ['/v1/counts']);
    const search = await phase(
      base,
      auth,
      'GET /v1/search?q=',
      WORDS.map((w) => `/v1/search?q=${encodeURIComponent(w)}`),
    );
    const listSearch = await phase(
      base,
      auth,
      'GET /v1/items?q=',
      WORDS.map((w) => `/v1/items?q=${encodeURIComponent(w)}`),
    );
    const chatList = await phase(base, auth, 'GET /v1/chats (default)', ['/v1/chats']);
    // The author list and author page: customers found through their comments and chats.
    const [newest] = await database
      .query<{ id: number }>('SELECT max(id) AS id FROM authors WHERE space_id = $1', [seeded.spaceId])
      .then((r) => r.rows);
    const authorList = await phase(base, auth, 'GET /v1/authors (items, chats)', [
      '/v1/authors?scope=items',
      '/v1/authors?scope=chats',
    ]);
    // Name search: a handle, a name fragment, and a string no customer has (the whole-table case).
    const authorSearch = await phase(base, auth, 'GET /v1/authors?q=', [
      '/v1/authors?scope=items&q=user9999',
      `/v1/authors?scope=chats&q=${encodeURIComponent('Покупатель 4242')}`,
      '/v1/authors?q=zzqx',
    ]);
    const authorPage = await phase(
      base,
      auth,
      'GET /v1/authors/:id',
      rotate(50, (i) => `/v1/authors/${Number(newest!.id) - i * 997}`),
    );
    pages.maxBytes = keptBytes;

    console.log('\nQuery plans:');
    const plans: string[] = [];
    const db = database.db;
    const [user] = await db.select().from(users).where(eq(users.id, seeded.userId));
    const actor = await loadActor(db, user!);
    const itemScope = await scopeFor(db, actor, 'items.view');
    const messageScope = await scopeFor(db, actor, 'messages.view');
    await explain(runtime, 'default item list', itemPageSql(itemScope, itemListQuery.parse({})), plans);
    await explain(
      runtime,
      'default item list, page 20',
      itemPageSql(itemScope, itemListQuery.parse({ before: cursors[cursors.length - 1] })),
      plans,
    );
    for (const days of [30, 365]) {
      await explain(
        runtime,
        `filtered item list (object + tag + ${days} days)`,
        itemPageSql(
          itemScope,
          itemListQuery.parse({
            object_id: String(objectIds[0]),
            tag_id: String(tagIds[0]),
            created_at_from: String(now - days * DAY_S),
            created_at_to: String(now),
          }),
        ),
        plans,
      );
    }
    await explain(
      runtime,
      'item list, q=заказа',
      itemPageSql(itemScope, itemListQuery.parse({ q: 'заказа' })),
      plans,
    );
    for (const word of ['заказа', 'артикул 4242']) {
      await explain(runtime, `search items, q=${word}`, searchItemsQuery(db, itemScope, word, 20), plans);
      await explain(
        runtime,
        `search messages, q=${word}`,
        searchMessagesQuery(db, messageScope, word, 20),
        plans,
      );
    }
    await explain(runtime, 'default chat list', chatPageSql(messageScope, chatListQuery.parse({})), plans);
    const resultsDir = join(dirname(fileURLToPath(import.meta.url)), 'results');
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(join(resultsDir, 'inbox-explain.txt'), plans.join('\n'));
    console.log('  full plans: bench/results/inbox-explain.txt');

    console.log('\nIngestion (sequential batches):');
    const ingestion = await measureIngestion(runtime, seeded);

    console.log(`machine after the run: ${machine()}`);
    console.log('\nResults (figure — target):');
    const share = list.rps / trivial.rps;
    const coldShare = cold.rps / trivial.rps;
    report('default list p95 (every request reads)', ms(cold.p95), '≤ 50 ms', cold.p95 <= 50);
    report(
      'default list throughput (as served)',
      `${list.rps.toFixed(0)} req/s = ${(share * 100).toFixed(0)}% of /healthz ${trivial.rps.toFixed(0)} req/s`,
      '≥ 30% of /healthz',
      share >= 0.3,
    );
    report('filtered list p95 (object+tag+dates)', ms(filtered.p95), '≤ 80 ms', filtered.p95 <= 80);
    report('GET /v1/counts p95', ms(counts.p95), '≤ 20 ms', counts.p95 <= 20);
    report('full-text search p95 (/v1/search)', ms(search.p95), '≤ 150 ms', search.p95 <= 150);
    report(
      'ingestion through ingest()',
      `${ingestion.pipeline.toFixed(0)} items/s (raw INSERT ${ingestion.raw.toFixed(0)}/s, ${((ingestion.pipeline / ingestion.raw) * 100).toFixed(0)}%)`,
      '≥ 2,000 items/s',
      ingestion.pipeline >= 2000,
    );
    report(
      'default list throughput, every request reads (info)',
      `${cold.rps.toFixed(0)} req/s = ${(coldShare * 100).toFixed(0)}% of /healthz`,
      '—',
      null,
    );
    report('default list p95, pages reused (info)', ms(list.p95), '—', null);
    report('default list pages 2–20 p95 (info)', ms(deep.p95), '—', null);
    report('list with q p95 (info)', ms(listSearch.p95), '—', null);
    report('default chat list p95 (info)', ms(chatList.p95), '—', null);
    report('author list p95 (info)', ms(authorList.p95), '—', null);
    report('author search p95 (info)', ms(authorSearch.p95), '—', null);
    report('author page p95 (info)', ms(authorPage.p95), '—', null);
    const errors = [
      trivial,
      list,
      cold,
      deep,
      filtered,
      counts,
      search,
      listSearch,
      chatList,
      authorList,
      authorSearch,
      authorPage,
    ].reduce((n, m) => n + m.errors, 0);
    const targets = results.filter((r) => r.pass !== null);
    console.log(
      `\n${targets.filter((r) => r.pass).length} of ${targets.length} targets met${errors ? `; ${errors} failed requests` : ''}.`,
    );
    if (errors > 0) process.exitCode = 1;
  } finally {
    await runtime.close();
  }
}

/**
 * 10,000 comments in batches of 500 through ingest() (validate, dedupe, authors and posts upserted,
 * items, thread links, activity, counters, events) beside the same rows by one INSERT per batch.
 * Each run uses fresh accounts and deletes them afterwards, so the seeded space stays as it was.
 */
async function measureIngestion(runtime: Runtime, seeded: SeededInbox) {
  const db = runtime.deps.database.db;
  const runId = Date.now().toString(36);
  const [pipelineObject, rawObject] = await db
    .insert(objects)
    .values([
      { spaceId: seeded.spaceId, provider: 'vk', name: `Bench ingest ${runId}` },
      { spaceId: seeded.spaceId, provider: 'vk', name: `Bench raw ${runId}` },
    ])
    .returning();
  try {
    const batches = Array.from({ length: INGEST_BATCHES }, (_, b) =>
      Array.from({ length: INGEST_BATCH_SIZE }, (_, n) => {
        const i = b * INGEST_BATCH_SIZE + n;
        return {
          type: 'item' as const,
          kind: 'comment' as const,
          externalId: `${runId}-${i}`,
          post: { externalId: `post-${i % 50}`, text: 'Пост', postedAt: new Date() },
          // Returning customers: authors repeat within and across runs.
          author: { externalId: `ingest-author-${i % 2_000}`, name: `Покупатель ${i % 2_000}` },
          text: `Где мой заказ номер ${i}? Where is my order ${i}?`,
          createdAt: new Date(Date.now() - (INGEST_BATCHES * INGEST_BATCH_SIZE - i) * 1000),
        };
      }),
    );

    const statements = BREAKDOWN ? recordStatements() : null;
    let started = performance.now();
    let created = 0;
    for (const batch of batches) {
      const result = await ingest({ db, bus: runtime.deps.bus }, pipelineObject!, batch);
      created += result.created;
    }
    const pipelineSeconds = (performance.now() - started) / 1000;
    statements?.report('ingest()', pipelineSeconds * 1000, INGEST_BATCHES * INGEST_BATCH_SIZE);
    if (created !== INGEST_BATCHES * INGEST_BATCH_SIZE) throw new Error(`ingest created ${created} items`);

    started = performance.now();
    for (const batch of batches) {
      await runtime.deps.database.query(
        `INSERT INTO items (space_id, object_id, kind, external_id, text, created_at)
         SELECT $1, $2, 'comment', e, t, c FROM unnest($3::text[], $4::text[], $5::timestamptz[]) AS u(e, t, c)`,
        [
          seeded.spaceId,
          rawObject!.id,
          batch.map((e) => e.externalId),
          batch.map((e) => e.text),
          batch.map((e) => e.createdAt.toISOString()),
        ],
      );
    }
    const rawSeconds = (performance.now() - started) / 1000;
    statements?.report('raw INSERT', rawSeconds * 1000, INGEST_BATCHES * INGEST_BATCH_SIZE);
    statements?.stop();
    const total = INGEST_BATCHES * INGEST_BATCH_SIZE;
    const pipeline = total / pipelineSeconds;
    const raw = total / rawSeconds;
    console.log(
      `  ingest(): ${total} items in ${pipelineSeconds.toFixed(2)} s = ${pipeline.toFixed(0)} items/s; raw INSERT: ${rawSeconds.toFixed(2)} s = ${raw.toFixed(0)} items/s`,
    );
    return { pipeline, raw };
  } finally {
    const ids = [pipelineObject!.id, rawObject!.id];
    await runtime.deps.database.query('DELETE FROM activity WHERE object_id = ANY($1::int[])', [ids]);
    await runtime.deps.database.query('DELETE FROM items WHERE object_id = ANY($1::int[])', [ids]);
    await runtime.deps.database.query('DELETE FROM objects WHERE id = ANY($1::int[])', [ids]);
    // The deleted rows sit at the head of the 'new' queue; vacuum them so the next run starts clean.
    await runtime.deps.database.query('VACUUM (ANALYZE) items');
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

function recordStatements() {
  type Query = (...args: unknown[]) => unknown;
  const proto = pg.Client.prototype as unknown as { query: Query };
  const original = proto.query;
  let byText = new Map<string, { calls: number; ms: number }>();
  const note = (text: string, started: number) => {
    const key = text.replace(/\s+/g, ' ').trim().slice(0, 110);
    const entry = byText.get(key) ?? { calls: 0, ms: 0 };
    entry.calls += 1;
    entry.ms += performance.now() - started;
    byText.set(key, entry);
  };
  proto.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0] as string | { text?: string } | undefined;
    const text = typeof first === 'string' ? first : (first?.text ?? '');
    const started = performance.now();
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last] as (...results: unknown[]) => void;
      args[last] = (...results: unknown[]) => {
        note(text, started);
        callback(...results);
      };
      return original.apply(this, args);
    }
    const result = original.apply(this, args);
    if (result instanceof Promise)
      void result.then(
        () => note(text, started),
        () => note(text, started),
      );
    return result;
  };
  return {
    report(phase: string, wallMs: number, rows: number) {
      const entries = [...byText.entries()].sort((a, b) => b[1].ms - a[1].ms);
      const inStatements = entries.reduce((sum, [, e]) => sum + e.ms, 0);
      console.log(
        `  ${phase}: ${wallMs.toFixed(0)} ms for ${rows} rows; in statements ${inStatements.toFixed(0)} ms (${((inStatements / wallMs) * 100).toFixed(0)} %), the app's own work between them ${(wallMs - inStatements).toFixed(0)} ms`,
      );
      for (const [text, e] of entries.slice(0, 12))
        console.log(
          `    ${e.ms.toFixed(0).padStart(6)} ms  ${String(e.calls).padStart(5)} ×  ${((e.ms / rows) * 1000).toFixed(1).padStart(6)} µs/row  ${text}`,
        );
      byText = new Map();
    },
    stop() {
      proto.query = original;
    },
  };
}
