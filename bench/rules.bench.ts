// Auto-rules benchmark (`npm run bench -- rules`, issue 17). On PostgreSQL when DATABASE_URL is set,
// otherwise on an in-memory PGlite (the same engine, slower), with the real engine and ingestion:
// 1. ingestion through the full pipeline (ingest(), batches of 200 sandbox comments) without rules, then
//    with 100 active arrival rules — the pipeline only queues items for the rules worker, so the rate
//    with rules must stay ≥ 80% of the rate without;
// 2. the rules worker on those items: per item, the time to evaluate the 100 rules (conditions only, in
//    process) and the whole pass (item, facts, conditions; one matching rule tags the item) — p95;
// 3. the "no reply for N minutes" query over BENCH_RULES_ITEMS items of one space (1,000,000 on
//    PostgreSQL, 200,000 on PGlite by default), EXPLAIN ANALYZE printed: it must use items_unreplied_idx;
//    likewise the waiting-for-the-customer query (items_queue_idx) and the task-due query
//    (issues_open_due_idx, one task per 10 items).
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/otklik_bench npm run bench -- rules
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { matchesRule, type RuleAction, type RuleGroup } from '@otklik/shared';
import { eq } from 'drizzle-orm';
import { openDatabase } from '../apps/server/src/db/client';
import { items, objects, ruleQueue, rules, tags } from '../apps/server/src/db/schema';
import { dueItemsQuery, dueTasksQuery, dueWaitingQuery } from '../apps/server/src/jobs/rules-no-reply';
import { testConfig } from '../apps/server/src/lib/config';
import { Sealer } from '../apps/server/src/lib/crypto';
import type { Logger } from '../apps/server/src/lib/logger';
import { ingest } from '../apps/server/src/modules/inbox/ingest/ingest';
import { type EngineDeps, factsOf, runRules } from '../apps/server/src/modules/rules/engine';
import { activeRules } from '../apps/server/src/modules/rules/service';
import { createTrialSpace } from '../apps/server/src/modules/spaces/service';
import { MemoryBus } from '../apps/server/src/realtime/bus';
import { MemoryLockStore } from '../apps/server/src/realtime/locks';
import { ensureDatabase } from './seed-inbox';

const url = process.env.DATABASE_URL;
const BATCHES = 10;
const BATCH = 200;
const RULES = 100;
const ITEMS = Number(process.env.BENCH_RULES_ITEMS ?? (url ? 1_000_000 : 200_000));
const TARGET_RATIO = 0.8;
const TARGET_P95_MS = 2;

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
const verdict = (pass: boolean) => (pass ? 'PASS' : 'MISS');
const silent = { error() {}, warn() {}, info() {}, debug() {} } as unknown as Logger;

/** 100 rules of every kind of condition; only the last one matches the benchmark's comments. */
function ruleSet(spaceId: number, tagId: number) {
  const conditions: RuleGroup[] = [];
  for (let i = 0; i < RULES - 1; i++) {
    const pick = i % 6;
    conditions.push(
      pick === 0
        ? { all: [{ type: 'text_contains', values: [`слово${i}`, `фраза ${i}`] }] }
        : pick === 1
          ? { all: [{ type: 'regex', pattern: `спам\\s*${i}` }] }
          : pick === 2
            ? {
                any: [
                  { type: 'network', providers: ['vk'] },
                  { type: 'rating', min: 1, max: 2 },
                ],
              }
            : pick === 3
              ? { all: [{ type: 'has_link' }, { type: 'kind', kinds: ['review'] }] }
              : pick === 4
                ? { all: [{ type: 'has_contact' }, { any: [{ type: 'tag', tag_ids: [tagId + 1000] }] }] }
                : { all: [{ type: 'only_emoji' }] },
    );
  }
  conditions.push({ all: [{ type: 'text_contains', values: ['доставка'] }] });
  return conditions.map((c, i) => ({
    spaceId,
    name: `Правило ${i + 1}`,
    position: i,
    trigger: 'item_created' as const,
    conditions: c,
    actions: [{ type: 'tag', tag_ids: [tagId] }] as RuleAction[],
  }));
}

async function main() {
  if (url) await ensureDatabase(url);
  const database = await openDatabase(url ? { url } : { inMemory: true });
  const { db, query } = database;
  console.log(
    `database: ${url ? 'PostgreSQL' : 'PGlite (in memory)'}; machine: load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${cpus().length} cores`,
  );
  const deps: EngineDeps = {
    db,
    bus: new MemoryBus(),
    config: testConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'otklik-bench-rules-')) }),
    sealer: new Sealer('bench-secret-key-0123456789abcdef0123456789'),
    locks: new MemoryLockStore(),
    log: silent,
  };
  const { rows } = await query<{ id: number }>(
    `INSERT INTO users (name, email, password_hash, email_status) VALUES ('Bench Rules', $1, 'x', 1) RETURNING id`,
    [`bench-rules-${randomUUID().slice(0, 8)}@example.test`],
  );
  const space = await createTrialSpace(db, { name: 'Bench rules', ownerId: Number(rows[0]!.id) });
  await query('UPDATE spaces SET is_trial = false, tariff_id = 20 WHERE id = $1', [space.id]);
  const [object] = await db
    .insert(objects)
    .values({ spaceId: space.id, provider: 'sandbox', name: 'Bench', settings: {} })
    .returning();
  const [tag] = await db.insert(tags).values({ spaceId: space.id, name: 'Доставка' }).returning();

  let seq = 0;
  const batch = () =>
    Array.from({ length: BATCH }, () => {
      seq += 1;
      return {
        type: 'item',
        kind: 'comment',
        externalId: `bench-${seq}`,
        post: { externalId: 'post-1', text: 'Пост', postedAt: new Date() },
        author: { externalId: `u-${seq % 500}`, name: 'Покупатель' },
        text: seq % 10 === 0 ? `Когда доставка заказа ${seq}?` : `Отзыв о кофе номер ${seq}, всё понравилось`,
        createdAt: new Date(),
      };
    });
  const ingestRate = async () => {
    await ingest(deps, object!, batch()); // warm-up
    const t0 = performance.now();
    for (let b = 0; b < BATCHES; b++) await ingest(deps, object!, batch());
    return (BATCHES * BATCH) / ((performance.now() - t0) / 1000);
  };

  // 1. The pipeline without rules, then with 100.
  const without = await ingestRate();
  await db.insert(rules).values(ruleSet(space.id, tag!.id));
  const withRules = await ingestRate();
  const ratio = withRules / without;
  console.log(
    `ingest: ${without.toFixed(0)} items/s without rules, ${withRules.toFixed(0)} items/s with ${RULES} active rules — ${(ratio * 100).toFixed(0)}% (target ≥ ${TARGET_RATIO * 100}%) ${verdict(ratio >= TARGET_RATIO)}`,
  );

  // 2. The worker's pass over the queued items.
  const queued = await db.select().from(ruleQueue).where(eq(ruleQueue.spaceId, space.id));
  const list = await activeRules(db, space.id, 'item_created');
  const evalMs: number[] = [];
  const passMs: number[] = [];
  for (const row of queued) {
    const [item] = await db.select().from(items).where(eq(items.id, row.itemId));
    if (!item) continue;
    const facts = await factsOf(db, item);
    const t0 = performance.now();
    for (const rule of list) matchesRule(rule.conditions, facts);
    evalMs.push(performance.now() - t0);
    const t1 = performance.now();
    await runRules(deps, row.itemId, 'item_created', { rules: async () => list });
    passMs.push(performance.now() - t1);
  }
  evalMs.sort((a, b) => a - b);
  passMs.sort((a, b) => a - b);
  const matched = await query<{ n: number }>(
    'SELECT count(*)::int AS n FROM rule_matches WHERE space_id = $1',
    [space.id],
  );
  console.log(
    `rules worker, ${queued.length} items × ${RULES} rules: conditions p50 ${pct(evalMs, 0.5).toFixed(3)} ms, p95 ${pct(evalMs, 0.95).toFixed(3)} ms (target ≤ ${TARGET_P95_MS} ms) ${verdict(pct(evalMs, 0.95) <= TARGET_P95_MS)}; whole pass with the database p50 ${pct(passMs, 0.5).toFixed(2)} ms, p95 ${pct(passMs, 0.95).toFixed(2)} ms; ${matched.rows[0]!.n} items matched (tagged)`,
  );

  // 3. The time-based trigger over many items.
  console.log(`seeding ${ITEMS.toLocaleString('en')} items for the no-reply query…`);
  const t0 = performance.now();
  await query(
    `INSERT INTO items (space_id, object_id, kind, external_id, text, status, first_reply_at, created_at, received_at)
     SELECT $1, $2, 'comment', 'seed-' || g, 'Отзыв ' || g,
       (ARRAY['new','inprogress','open','closed','closed','waiting'])[1 + g % 6],
       CASE WHEN g % 3 = 0 THEN NULL ELSE now() - interval '1 day' END,
       now() - (g % 43200) * interval '1 minute', now() - (g % 43200) * interval '1 minute'
     FROM generate_series(1, $3) AS g`,
    [space.id, object!.id, ITEMS],
  );
  await query('ANALYZE items');
  console.log(`seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const [rule] = await db
    .insert(rules)
    .values({
      spaceId: space.id,
      name: 'Без ответа 10 минут',
      trigger: 'no_reply',
      minutes: 10,
      conditions: { all: [] },
      actions: [{ type: 'tag', tag_ids: [tag!.id] }],
      createdAt: new Date(Date.now() - 2 * 86_400_000),
    })
    .returning();
  const due = dueItemsQuery(deps, rule!, new Date(), 10 * 60_000).toSQL();
  const plan = await query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${due.sql}`, due.params);
  const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
  console.log(text);
  const indexed = text.includes('items_unreplied_idx') && !/Seq Scan on items\b/.test(text);
  console.log(
    `no-reply query: ${indexed ? 'on items_unreplied_idx' : 'NOT on the index'} ${verdict(indexed)}`,
  );

  // 4. The other time-based triggers: waiting for the customer (the space's waiting queue on
  // items_queue_idx) and tasks due (issues_open_due_idx), over the same items and one task per 10 items.
  const explain = async (
    name: string,
    index: string,
    table: string,
    sqlText: { sql: string; params: unknown[] },
  ) => {
    const rows = await query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, BUFFERS) ${sqlText.sql}`,
      sqlText.params,
    );
    const out = rows.rows.map((r) => r['QUERY PLAN']).join('\n');
    console.log(out);
    const ok = out.includes(index) && !new RegExp(`Seq Scan on ${table}\\b`).test(out);
    console.log(`${name} query: ${ok ? `on ${index}` : 'NOT on the index'} ${verdict(ok)}`);
  };
  const [waitingRule] = await db
    .insert(rules)
    .values({
      spaceId: space.id,
      name: 'Ждём клиента 24 часа',
      trigger: 'waiting_customer',
      minutes: 24 * 60,
      conditions: { all: [] },
      actions: [{ type: 'tag', tag_ids: [tag!.id] }],
      createdAt: new Date(Date.now() - 30 * 86_400_000),
    })
    .returning();
  await explain(
    'waiting-for-the-customer',
    'items_queue_idx',
    'items',
    dueWaitingQuery(deps, waitingRule!, new Date(), 24 * 3_600_000).toSQL(),
  );
  await query(
    `INSERT INTO issues (space_id, title, status, due_at)
     SELECT $1, 'Задача ' || g, (ARRAY['new','inprogress','closed'])[1 + g % 3], now() - (g % 43200) * interval '1 minute'
     FROM generate_series(1, $2) AS g`,
    [space.id, Math.floor(ITEMS / 10)],
  );
  await query(
    `INSERT INTO issue_links (issue_id, space_id, kind, target_id)
     SELECT i.id, i.space_id, 'item', (SELECT min(id) FROM items WHERE space_id = $1) + i.id % 1000 FROM issues i WHERE i.space_id = $1`,
    [space.id],
  );
  await query('ANALYZE issues');
  await query('ANALYZE issue_links');
  const [taskRule] = await db
    .insert(rules)
    .values({
      spaceId: space.id,
      name: 'Срок задачи',
      trigger: 'task_due',
      conditions: { all: [] },
      actions: [{ type: 'tag', tag_ids: [tag!.id] }],
      createdAt: new Date(Date.now() - 3_600_000),
    })
    .returning();
  await explain(
    'task-due',
    'issues_open_due_idx',
    'issues',
    dueTasksQuery(deps, taskRule!, new Date()).toSQL(),
  );
  await database.close();
}

await main();
