// Background export benchmark (`npm run bench -- export`, issue 15: "export of 1M rows ≥ 50k rows/s,
// memory flat"). On PostgreSQL when DATABASE_URL is set, otherwise on an in-memory PGlite (the same
// engine, slower; its database lives in this process, so its memory counts in the RSS too). Seeds one
// space with EXPORT_BENCH_ROWS customer items (100,000 by default, a couple of minutes on PGlite;
// EXPORT_BENCH_ROWS=1000000 for the million) over 5 accounts with authors, 10% tagged, then runs
// the real export job (modules/stats/exports.ts runExport: id windows streamed into the file) as CSV and
// as XLSX, and prints for each:
// - rows/s, PASS/MISS against 50,000 rows/s;
// - memory the export holds: the V8 heap right after a full collection, before the export, at half
//   the rows and at nine tenths (from the job's own progress events). PASS/MISS "flat" when the half
//   holds under EXPORT_BENCH_FLAT_MB (100 MB by default) over the baseline and the last four tenths add
//   under a tenth of that: a flat export does not grow with the rows written;
// - the peaks of RSS and heap sampled every 20 ms, garbage included: V8 lets the old generation fill
//   (to ~175 MB in this process) before it collects, so the peaks say when V8 chose to collect, not what
//   the export keeps (`node --trace-gc` shows each collection bringing the heap back to ~45 MB).
//
//   npm run bench -- export
//   EXPORT_BENCH_ROWS=1000000 npm run bench -- export
//   EXPORT_BENCH_ROWS=50000 EXPORT_BENCH_FLAT_MB=100 npm run bench -- export   (a quick smoke run)
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { EXPORT_EVENT, type ExportWire } from '@otklik/shared';
import { eq } from 'drizzle-orm';
import { type Db, openDatabase } from '../apps/server/src/db/client';
import { statsExports, users } from '../apps/server/src/db/schema';
import type { Logger } from '../apps/server/src/lib/logger';
import { Mailer } from '../apps/server/src/mail/mailer';
import { loadActor } from '../apps/server/src/modules/spaces/actor';
import { createTrialSpace } from '../apps/server/src/modules/spaces/service';
import { claimExport, runExport, startExport } from '../apps/server/src/modules/stats/exports';
import { MemoryBus } from '../apps/server/src/realtime/bus';

// A full garbage collection on demand (node's `gc`, exposed for this process from inside it, as
// `scripts/bench.mjs` starts every benchmark the same way).
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

const ROWS = Number(process.env.EXPORT_BENCH_ROWS ?? 100_000);
const TARGET_ROWS_PER_S = 50_000;
const FLAT_MB = Number(process.env.EXPORT_BENCH_FLAT_MB ?? 100);
const CHUNK = 50_000;

const silent = { info() {}, warn() {}, error() {}, debug() {}, child: () => silent } as unknown as Logger;
const mb = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(0)} MB`;
const url = process.env.DATABASE_URL;

type Query = Awaited<ReturnType<typeof openDatabase>>['query'];

/** With EXPORT_BENCH_REUSE set: the last bench space holding exactly ROWS items (a run's seed is kept). */
async function reusableSeed(q: Query) {
  const { rows } = await q<{ space_id: number; owner: number }>(
    `SELECT s.id AS space_id, s.created_by AS owner FROM spaces s WHERE s.name = 'Export bench'
       AND (SELECT count(*) FROM items i WHERE i.space_id = s.id) = $1 ORDER BY s.id DESC LIMIT 1`,
    [ROWS],
  );
  return rows[0] ? { userId: Number(rows[0].owner), spaceId: Number(rows[0].space_id) } : null;
}

/** One space with ROWS customer items over 5 accounts, 10,000 authors, every tenth item tagged. */
async function seed(q: Query, db: Db) {
  const email = `bench-export-${Date.now()}@example.test`;
  const { rows: userRows } = await q<{ id: number }>(
    `INSERT INTO users (name, email, password_hash, email_status, locale) VALUES ('Bench', $1, 'x', 1, 'en') RETURNING id`,
    [email],
  );
  const userId = Number(userRows[0]!.id);
  const space = await createTrialSpace(db, { name: 'Export bench', ownerId: userId });
  await q(`UPDATE spaces SET is_trial = false, expires_at = now() + interval '10 years' WHERE id = $1`, [
    space.id,
  ]);
  const { rows: objectRows } = await q<{ id: number }>(
    `INSERT INTO objects (space_id, provider, name)
       SELECT $1, p, 'Account ' || p FROM unnest(ARRAY['vk','telegram','instagram','gmaps','sandbox']) p RETURNING id`,
    [space.id],
  );
  const objectIds = objectRows.map((r) => Number(r.id));
  await q(
    `INSERT INTO authors (space_id, provider, external_id, name)
       SELECT $1, 'vk', 'a' || g, 'Customer ' || g FROM generate_series(1, 10000) g`,
    [space.id],
  );
  const authorBase = Number(
    (await q<{ m: number }>('SELECT min(id) AS m FROM authors WHERE space_id = $1', [space.id])).rows[0]!.m,
  );
  const { rows: tagRows } = await q<{ id: number }>(
    `INSERT INTO tags (space_id, name) SELECT $1, 'Tag ' || g FROM generate_series(1, 10) g RETURNING id`,
    [space.id],
  );
  const tagIds = tagRows.map((r) => Number(r.id));
  for (let from = 0; from < ROWS; from += CHUNK) {
    const to = Math.min(ROWS, from + CHUNK) - 1;
    await q(
      `INSERT INTO items (space_id, object_id, kind, external_id, author_id, text, status, close_reason,
           created_at, closed_at, rating)
         SELECT $1, ($2::int[])[1 + g % 5], CASE WHEN g % 7 = 0 THEN 'review' ELSE 'comment' END, 'i' || g,
           $3::bigint + g % 10000,
           CASE WHEN g % 11 = 0 THEN '=formula, "quoted" ' || g ELSE 'Where is my order? Жду заказ номер ' || g END,
           CASE WHEN g % 3 = 0 THEN 'new' ELSE 'closed' END,
           CASE WHEN g % 3 = 0 THEN NULL ELSE 'reply' END,
           now() - make_interval(secs => g), CASE WHEN g % 3 = 0 THEN NULL ELSE now() END,
           CASE WHEN g % 7 = 0 THEN 1 + g % 5 ELSE NULL END
         FROM generate_series($4::int, $5::int) g`,
      [space.id, objectIds, authorBase, from, to],
    );
  }
  await q(
    `INSERT INTO item_tags (item_id, tag_id, space_id)
       SELECT id, ($2::int[])[1 + id % 10], space_id FROM items WHERE space_id = $1 AND id % 10 = 0`,
    [space.id, tagIds],
  );
  await q('ANALYZE items');
  await q('ANALYZE item_tags');
  return { userId, spaceId: space.id };
}

async function main() {
  const database = await openDatabase(url ? { url } : { inMemory: true });
  const q = database.query;
  const dataDir = mkdtempSync(join(tmpdir(), 'otklik-export-bench-'));
  try {
    console.log(
      `export bench: ${ROWS.toLocaleString('en')} items on ${url ? 'PostgreSQL' : 'PGlite (in memory)'}`,
    );
    let started = performance.now();
    const seeded = process.env.EXPORT_BENCH_REUSE ? await reusableSeed(q) : null;
    const { userId, spaceId } = seeded ?? (await seed(q, database.db));
    console.log(
      seeded
        ? `seed: reused space ${spaceId} (EXPORT_BENCH_REUSE)`
        : `seed: ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    // The machine's pace: benchmarks share it with other work, so the figures below go with these.
    started = performance.now();
    for (let i = 0; i < 200; i++) await q('SELECT 1');
    const pace = `machine: SELECT 1 ${(((performance.now() - started) / 200) * 1000).toFixed(0)} µs, load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`;
    console.log(pace);

    const [user] = await database.db.select().from(users).where(eq(users.id, userId));
    const actor = await loadActor(database.db, user!);
    const bus = new MemoryBus();
    const deps = {
      db: database.db,
      bus,
      mailer: new Mailer(database.db, silent, { from: 'bench@example.test' }),
      appUrl: 'http://127.0.0.1',
      dataDir,
      log: silent,
    };
    const results: string[] = [];
    for (const format of ['csv', 'xlsx'] as const) {
      // The period covers every seeded item (they go back ROWS seconds from now).
      const days = Math.ceil(ROWS / 86_400) + 2;
      const from = new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
      const to = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      await startExport(
        { db: database.db, bus },
        actor,
        'en',
        {
          space_id: spaceId,
          kind: 'items',
          format,
          from,
          to,
          provider: [],
          object_id: [],
          item_kind: [],
          company_id: [],
          tag_id: [],
          operator_id: [],
          status: [],
        },
        new Date(),
      );
      const row = await claimExport(database.db, new Date(), [spaceId]);
      collect();
      const base = process.memoryUsage();
      // Peaks of RSS and heap over the whole export, and separately up to the half of the rows (the
      // job's progress events say how far it has got).
      let peakRss = base.rss;
      let peakHeap = base.heapUsed;
      let halfRss: number | null = null;
      let halfHeap: number | null = null;
      let rowsSeen = 0;
      // What the export holds (the heap right after a full collection) at half and at nine tenths of
      // the rows: memory that grows with the rows shows here, garbage V8 has not yet collected does not.
      let liveHalf: number | null = null;
      let liveLate: number | null = null;
      const live = () => {
        collect();
        return process.memoryUsage().heapUsed;
      };
      const sample = () => {
        const m = process.memoryUsage();
        peakRss = Math.max(peakRss, m.rss);
        peakHeap = Math.max(peakHeap, m.heapUsed);
        if (halfRss === null && rowsSeen >= ROWS / 2) {
          halfRss = peakRss;
          halfHeap = peakHeap;
        }
      };
      const unsubscribe = bus.subscribe((event) => {
        if (event.type !== EXPORT_EVENT) return;
        rowsSeen = (event.payload as { export: ExportWire }).export.rows_done;
        sample();
        if (liveHalf === null && rowsSeen >= ROWS / 2) liveHalf = live();
        else if (liveLate === null && rowsSeen >= (ROWS * 9) / 10) liveLate = live();
      });
      const sampler = setInterval(sample, 20);
      started = performance.now();
      const cpuBefore = process.cpuUsage();
      const done = await runExport(deps, row!, () => new Date());
      const seconds = (performance.now() - started) / 1000;
      const cpu = process.cpuUsage(cpuBefore);
      clearInterval(sampler);
      unsubscribe();
      sample();
      if (done.status !== 'done' || done.rowsDone !== ROWS)
        throw new Error(`export ${format}: ${done.status} ${done.rowsDone} rows (${done.error})`);
      const rate = done.rowsDone / seconds;
      const rssGrowth = peakRss - base.rss;
      const heapGrowth = peakHeap - base.heapUsed;
      // No progress event reached the half (a very fast export): the second half is unknown.
      const lateRss = halfRss === null ? null : peakRss - halfRss;
      const lateHeap = halfHeap === null ? null : peakHeap - halfHeap;
      const flat =
        liveHalf !== null &&
        liveLate !== null &&
        liveHalf - base.heapUsed < FLAT_MB * 1024 ** 2 &&
        liveLate - liveHalf < (FLAT_MB / 10) * 1024 ** 2;
      const late = (v: number | null) => (v === null ? 'n/a' : `+${mb(v)}`);
      const held = (v: number | null) => (v === null ? 'n/a' : mb(v));
      const line = [
        `${format.toUpperCase()}: ${done.rowsDone.toLocaleString('en')} rows in ${seconds.toFixed(1)} s = ${Math.round(rate).toLocaleString('en')} rows/s — ${rate >= TARGET_ROWS_PER_S ? 'PASS' : 'MISS'} (≥ ${TARGET_ROWS_PER_S.toLocaleString('en')} rows/s); file ${mb(done.size ?? 0)}`,
        `      this process's CPU: ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s = ${((cpu.user + cpu.system) / 1000 / (done.rowsDone / 1000)).toFixed(1)} ms per 1,000 rows (${Math.round(done.rowsDone / ((cpu.user + cpu.system) / 1e6)).toLocaleString('en')} rows per CPU-second; the database's own CPU not counted)`,
        `      held (heap after a full collection): ${mb(base.heapUsed)} before → ${held(liveHalf)} at half the rows → ${held(liveLate)} at nine tenths — flat: ${flat ? 'PASS' : 'MISS'} (< ${FLAT_MB} MB over the baseline at half, < ${FLAT_MB / 10} MB more by nine tenths)`,
        `      peaks with garbage not yet collected: RSS ${mb(base.rss)} → max ${mb(peakRss)} (+${mb(rssGrowth)}, second half ${late(lateRss)}); heap → max ${mb(peakHeap)} (+${mb(heapGrowth)}, second half ${late(lateHeap)})`,
      ].join('\n');
      console.log(line);
      results.push(line);
      await database.db.delete(statsExports).where(eq(statsExports.id, done.id));
    }
    console.log(`\nexport bench results (${pace}):`);
    for (const line of results) console.log(`  ${line}`);
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
