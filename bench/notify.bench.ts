// Notifications benchmark (`npm run bench -- notify`, issue 18). On PostgreSQL when DATABASE_URL is set,
// otherwise on an in-memory PGlite (the same engine, slower), with the real ingestion, rules worker and
// email job. 100 spaces of 10 members each (1,000 users): two sandbox accounts per space, a user group
// limited to the first account (3 members of every space are in it), and per member a watch (one or
// both accounts), a saved comments filter for half of them (text, provider, account or status queries)
// and subscriptions of every channel and frequency (at once … weekly, some switched off).
//
// 1. Intake: ITEMS items (2,000 — one minute at the target's 2,000 items/min) go through ingest() in
//    batches of 5, one batch per space a round; rounds without the watches and with them alternate (the
//    same spaces, subscriptions and filters), so both see the same machine. The pipeline only queues the
//    arrivals of a watched space in its transaction (rule_queue, trigger `notify`), so the difference of
//    the means per item is what intake pays for the subscriptions.
// 2. Matching: the rules worker matches the queued arrivals after the commit with matchArrival() — the
//    space's watches and saved filters against the item, then who of the candidates may see it (roles,
//    user groups). That function is the whole of "matching subscriptions", so it is timed directly, item
//    by item in queue order, in batches of the worker's size with the worker's per-batch MatchCache: an
//    item's time is its own part plus its batch's shared reads (items, watches with the watchers'
//    memberships and groups, filters) shared out over the batch. Under the target's load the worker's
//    batches are full (arrivals come faster than a batch is written). The target: intake's added mean +
//    matching p95 ≤ 1 ms. The worst case (an arrival alone in its batch) is printed beside it.
//    Writing the notifications (notify(): rows, sockets, deliveries) is delivery, not matching: the
//    worker's whole pass over the first WORKER_PASS_ITEMS arrivals is timed for the record.
// 3. Digest: the email job (NotificationDeliveryJob.tick) with the clock moved 8 days on, so every
//    pending email delivery (hourly … weekly) is due, sends through nodemailer to a local SMTP sink on
//    127.0.0.1 (the tests' apps/server/test/smtp.ts) until a tick sends nothing — target ≤ 10 s.
//
// Every figure here is a few database round trips; the machine's pace (one trivial query) is printed
// first, since benchmarks share the machine with other work.
//
//   npm run bench -- notify
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  type NotificationChannel,
  type NotificationEvent,
  type NotificationFrequency,
  presetFor,
} from '@otklik/shared';
import { and, eq, inArray } from 'drizzle-orm';
import { openDatabase } from '../apps/server/src/db/client';
import { ruleQueue } from '../apps/server/src/db/schema';
import { NotificationDeliveryJob } from '../apps/server/src/jobs/notification-delivery';
import { RulesWorker } from '../apps/server/src/jobs/rules-worker';
import { testConfig } from '../apps/server/src/lib/config';
import { Sealer } from '../apps/server/src/lib/crypto';
import type { Logger } from '../apps/server/src/lib/logger';
import { Mailer } from '../apps/server/src/mail/mailer';
import { ingest, type ObjectRow } from '../apps/server/src/modules/inbox/ingest/ingest';
import {
  MatchCache,
  matchArrival,
  NOTIFY_QUEUE_TRIGGER,
} from '../apps/server/src/modules/notifications/watches';
import { createTrialSpace } from '../apps/server/src/modules/spaces/service';
import { MemoryBus } from '../apps/server/src/realtime/bus';
import { MemoryLockStore } from '../apps/server/src/realtime/locks';
import { startSmtpServer } from '../apps/server/test/smtp';
import { ensureDatabase } from './seed-inbox';

const url = process.env.DATABASE_URL;
const SPACES = 100;
const MEMBERS = 10;
const ITEMS = Number(process.env.BENCH_NOTIFY_ITEMS ?? 2_000);
const BATCH = 5;
/** The rules worker's batch (jobs/rules-worker.ts BATCH). */
const WORKER_BATCH = 50;
const WORKER_PASS_ITEMS = Number(process.env.BENCH_NOTIFY_PASS ?? 500);
const TARGET_RATE_PER_MIN = 2_000;
const TARGET_MATCH_MS = 1;
const TARGET_DIGEST_S = 10;
const MAX_DIGEST_ROUNDS = 50;

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
const verdict = (pass: boolean) => (pass ? 'PASS' : 'MISS');
const ms = (n: number) => n.toFixed(3);
const silent = { error() {}, warn() {}, info() {}, debug() {} } as unknown as Logger;

const FREQUENCIES: NotificationFrequency[] = [
  'at_once',
  'hourly',
  'every_3h',
  'every_12h',
  'daily',
  'weekly',
  'never',
];
const WORDS = ['доставка', 'возврат', 'курьер', 'скидка', 'refund', 'order', 'кофе', 'спасибо'];

async function main() {
  if (url) await ensureDatabase(url);
  const database = await openDatabase(url ? { url } : { inMemory: true });
  const { db, query } = database;
  console.log(
    `database: ${url ? 'PostgreSQL' : 'PGlite (in memory)'}; machine: load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${cpus().length} cores`,
  );
  // The machine's pace now: benchmarks share it with other work, and every figure below is a few
  // database round trips, so the cost of the smallest one is printed beside them.
  const trivial: number[] = [];
  for (let i = 0; i < 200; i++) {
    const started = performance.now();
    await query('SELECT 1');
    trivial.push(performance.now() - started);
  }
  trivial.sort((x, y) => x - y);
  console.log(
    `one trivial query (SELECT 1): p50 ${ms(pct(trivial, 0.5))} ms, p95 ${ms(pct(trivial, 0.95))} ms`,
  );
  const smtp = await startSmtpServer();
  const bus = new MemoryBus();
  const sealer = new Sealer('bench-secret-key-0123456789abcdef0123456789');
  const config = testConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'otklik-bench-notify-')) });
  const deps = { db, bus, config, sealer, locks: new MemoryLockStore(), log: silent };

  // Seeding: 1,000 users, 100 spaces of 10 members, accounts, groups, filters, watches, subscriptions.
  const t0 = performance.now();
  const run = randomUUID().slice(0, 8);
  const { rows: userRows } = await query<{ id: number }>(
    `INSERT INTO users (name, email, password_hash, email_status, locale)
     SELECT 'Bench user ' || g, 'bench-notify-${run}-' || g || '@example.test', 'x', 1,
       CASE WHEN g % 3 = 0 THEN 'en' ELSE 'ru' END
     FROM generate_series(1, $1) AS g ORDER BY g RETURNING id`,
    [SPACES * MEMBERS],
  );
  const userIds = userRows.map((r) => Number(r.id));
  const spaceIds: number[] = [];
  /** Inserted after the baseline intake: (user, space, accounts, filters). */
  const watches: Array<[number, number, number[], number[]]> = [];
  const accounts: ObjectRow[][] = [];
  const operator = JSON.stringify(presetFor('operator'));
  for (let s = 0; s < SPACES; s++) {
    const members = userIds.slice(s * MEMBERS, (s + 1) * MEMBERS);
    const space = await createTrialSpace(db, { name: `Bench notify ${s + 1}`, ownerId: members[0]! });
    spaceIds.push(space.id);
    const { rows: objectRows } = await query<{ id: number }>(
      `INSERT INTO objects (space_id, provider, name, settings)
       VALUES ($1, 'sandbox', 'Отзывы', '{}'), ($1, 'sandbox', 'Вопросы', '{}') RETURNING id`,
      [space.id],
    );
    const [a, b] = objectRows.map((r) => Number(r.id)) as [number, number];
    const { rows: groupRows } = await query<{ id: number }>(
      `INSERT INTO user_groups (space_id, name, object_ids) VALUES ($1, 'Только отзывы', $2) RETURNING id`,
      [space.id, JSON.stringify([a])],
    );
    const groupId = Number(groupRows[0]!.id);
    // Members 1…9 are operators; 3, 6 and 9 only see the first account.
    await query(
      `INSERT INTO memberships (space_id, user_id, roles, group_id)
       SELECT $1, u, $2::jsonb, CASE WHEN ord % 3 = 0 THEN $3::int END
       FROM unnest($4::int[]) WITH ORDINALITY AS m(u, ord)`,
      [space.id, operator, groupId, members.slice(1)],
    );
    for (let k = 0; k < MEMBERS; k++) {
      const userId = members[k]!;
      let filterIds: number[] = [];
      if (k % 2 === 0) {
        const pick = (s + k) % 4;
        const filter =
          pick === 0
            ? { q: 'доставка' }
            : pick === 1
              ? { q: 'возврат', provider: 'sandbox' }
              : pick === 2
                ? { object_id: String(b), status: ['new', 'inprogress'] }
                : { q: 'refund order', source: `${a},${b}` };
        const { rows } = await query<{ id: number }>(
          `INSERT INTO saved_filters (user_id, name, query, route) VALUES ($1, $2, $3, 'items') RETURNING id`,
          [userId, `Фильтр ${k}`, JSON.stringify(filter)],
        );
        filterIds = [Number(rows[0]!.id)];
      }
      const objectIds = k % 3 === 0 ? [a, b] : k % 3 === 1 ? [a] : [b];
      watches.push([userId, space.id, objectIds, filterIds]);
      const subs: Array<[NotificationEvent, NotificationChannel, NotificationFrequency]> = [
        ['new_item', 'inapp', k % 4 === 3 ? 'never' : 'at_once'],
        ['new_item', 'browser', k % 2 === 0 ? 'at_once' : 'never'],
        ['new_item', 'email', FREQUENCIES[(s + k) % FREQUENCIES.length]!],
        ['comments_filter', 'inapp', 'at_once'],
        ['comments_filter', 'email', FREQUENCIES[(s + k + 3) % FREQUENCIES.length]!],
        ['comments_filter', 'telegram', 'never'],
        ['assigned', 'email', k % 5 === 0 ? 'never' : 'at_once'],
        ['mention', 'email', 'daily'],
      ];
      await query(
        `INSERT INTO notification_subscriptions (user_id, space_id, event, channel, frequency)
         SELECT $1, $2, e, c, f FROM unnest($3::text[], $4::text[], $5::text[]) AS s(e, c, f)`,
        [userId, space.id, subs.map((x) => x[0]), subs.map((x) => x[1]), subs.map((x) => x[2])],
      );
    }
    await query(
      `UPDATE spaces SET is_trial = false, tariff_id = 20, expires_at = now() + interval '10 years' WHERE id = $1`,
      [space.id],
    );
    const objectRowsFull = await db.query.objects.findMany({
      where: (o, { inArray: within }) => within(o.id, [a, b]),
      orderBy: (o, { asc }) => [asc(o.id)],
    });
    accounts.push(objectRowsFull);
  }
  console.log(
    `seeded ${SPACES} spaces × ${MEMBERS} members (${userIds.length} users) with watches, filters and subscriptions in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  let seq = 0;
  const batchFor = () =>
    Array.from({ length: BATCH }, () => {
      seq += 1;
      const word = WORDS[seq % WORDS.length]!;
      return {
        type: 'item',
        kind: 'comment',
        externalId: `bench-${seq}`,
        post: { externalId: 'post-1', text: 'Пост', postedAt: new Date() },
        author: { externalId: `u-${seq % 500}`, name: 'Покупатель' },
        text: `Отзыв номер ${seq}: ${word}, ${seq % 7 === 0 ? 'refund my order please' : 'всё понравилось'}`,
        createdAt: new Date(),
      };
    });
  /** Ingests `count` items in batches of BATCH, rotating over spaces and their two accounts; ms per item. */
  const feed = async (count: number) => {
    const perItem: number[] = [];
    for (let n = 0; n < count / BATCH; n++) {
      const space = n % SPACES;
      const object = accounts[space]![Math.floor(n / SPACES) % 2]!;
      const events = batchFor();
      const started = performance.now();
      await ingest({ db, bus }, object, events);
      perItem.push((performance.now() - started) / BATCH);
    }
    return perItem;
  };
  const mean = (xs: number[]) => xs.reduce((sum, x) => sum + x, 0) / xs.length;

  // 1. Intake without and with the watches, interleaved round by round (the machine's load changes under
  //    a benchmark): a round is one batch per space; between rounds the watches are taken away or put back.
  const putWatches = () =>
    query(
      `INSERT INTO notification_watches (user_id, space_id, object_ids, filter_ids)
       SELECT u, s, o::jsonb, f::jsonb FROM unnest($1::int[], $2::int[], $3::text[], $4::text[]) AS w(u, s, o, f)`,
      [
        watches.map((w) => w[0]),
        watches.map((w) => w[1]),
        watches.map((w) => JSON.stringify(w[2])),
        watches.map((w) => JSON.stringify(w[3])),
      ],
    );
  const takeWatches = () => query('DELETE FROM notification_watches WHERE space_id = ANY($1)', [spaceIds]);
  await feed(BATCH * SPACES); // warm-up
  const before: number[] = [];
  const withWatches: number[] = [];
  const fed = performance.now();
  let fedMs = 0;
  for (let round = 0; round < ITEMS / (BATCH * SPACES); round++) {
    before.push(...(await feed(BATCH * SPACES)));
    await putWatches();
    const started = performance.now();
    withWatches.push(...(await feed(BATCH * SPACES)));
    fedMs += performance.now() - started;
    if (round < ITEMS / (BATCH * SPACES) - 1) await takeWatches();
  }
  before.sort((x, y) => x - y);
  withWatches.sort((x, y) => x - y);
  const added = mean(withWatches) - mean(before);
  console.log(
    `intake (ingest(), batches of ${BATCH}, ${before.length * BATCH} items without watches and ${withWatches.length * BATCH} with, interleaved, ${((performance.now() - fed) / 1000).toFixed(1)} s): without mean ${ms(mean(before))} ms/item, p95 ${ms(pct(before, 0.95))}; with mean ${ms(mean(withWatches))} ms/item, p95 ${ms(pct(withWatches, 0.95))} — added ${ms(added)} ms/item (${ITEMS} watched items at ${((ITEMS / fedMs) * 60_000).toFixed(0)} items/min)`,
  );

  // 2. Matching, as the worker does it: queue order, batches of WORKER_BATCH, one cache per batch.
  const queued = await db
    .select({ id: ruleQueue.id, itemId: ruleQueue.itemId })
    .from(ruleQueue)
    .where(and(inArray(ruleQueue.spaceId, spaceIds), eq(ruleQueue.trigger, NOTIFY_QUEUE_TRIGGER)))
    .orderBy(ruleQueue.id);
  const matchMs: number[] = [];
  const rawMs: number[] = [];
  let recipients = 0;
  let matchedItems = 0;
  for (let from = 0; from < queued.length; from += WORKER_BATCH) {
    const batch = queued.slice(from, from + WORKER_BATCH);
    const cache = new MatchCache(db);
    const batchStarted = performance.now();
    await cache.prefetch(batch.map((r) => r.itemId));
    const own: number[] = [];
    for (const row of batch) {
      const started = performance.now();
      const match = await matchArrival(db, row.itemId, cache);
      own.push(performance.now() - started);
      if (match) {
        matchedItems += 1;
        recipients += match.byFilter.size + match.accountOnly.length;
      }
    }
    // The batch's time not spent on any one item (the prefetch, mostly) is shared out evenly.
    const sharedEach = (performance.now() - batchStarted - own.reduce((a, b) => a + b, 0)) / batch.length;
    for (const t of own) {
      matchMs.push(t + sharedEach);
      rawMs.push(t);
    }
  }
  matchMs.sort((x, y) => x - y);
  rawMs.sort((x, y) => x - y);
  // The worst case, for the record: every arrival alone in its batch (an idle worker woken per item), so
  // each pays the whole read of its space's watches, filters, memberships and groups.
  const aloneMs: number[] = [];
  for (const row of queued.slice(0, 500)) {
    const started = performance.now();
    await matchArrival(db, row.itemId, new MatchCache(db));
    aloneMs.push(performance.now() - started);
  }
  aloneMs.sort((x, y) => x - y);
  const matchP95 = pct(matchMs, 0.95);
  const total = Math.max(0, added) + matchP95;
  console.log(
    `matching (${queued.length} queued arrivals, batches of ${WORKER_BATCH}): p50 ${ms(pct(matchMs, 0.5))} ms, p95 ${ms(matchP95)} ms, max ${ms(matchMs.at(-1) ?? Number.NaN)} ms per item (its own lookups alone: p95 ${ms(pct(rawMs, 0.95))} ms; an arrival alone in its batch: p50 ${ms(pct(aloneMs, 0.5))}, p95 ${ms(pct(aloneMs, 0.95))} ms); ${matchedItems} items matched, ${recipients} recipients`,
  );
  console.log(
    `subscriptions add ${ms(total)} ms per item to the pipeline (intake ${ms(Math.max(0, added))} + matching p95 ${ms(matchP95)}; target ≤ ${TARGET_MATCH_MS} ms) ${verdict(total <= TARGET_MATCH_MS)}`,
  );

  // The worker's whole pass: matching and writing the notifications (rows, sockets, email deliveries).
  const worker = new RulesWorker({ ...deps, spaceIds });
  const drained = performance.now();
  // tick() by tick() (drain() is for a started worker); bounded to WORKER_PASS_ITEMS arrivals (writing
  // the notifications is slow on a loaded PGlite), the rest of the queue is dropped.
  let handled = 0;
  for (let tick = 0; tick < WORKER_PASS_ITEMS / WORKER_BATCH; tick++) {
    const done = await worker.tick();
    handled += done;
    if (done === 0) break;
  }
  const drainS = (performance.now() - drained) / 1000;
  await db.delete(ruleQueue).where(inArray(ruleQueue.spaceId, spaceIds));
  const perMin = (handled / drainS) * 60;
  const written = await query<{ n: number; d: number }>(
    `SELECT (SELECT count(*)::int FROM notifications WHERE space_id = ANY($1)) AS n,
            (SELECT count(*)::int FROM notification_deliveries WHERE space_id = ANY($1) AND state = 'pending') AS d`,
    [spaceIds],
  );
  console.log(
    `rules worker, whole pass (matching + notify()): ${handled} items in ${drainS.toFixed(1)} s = ${perMin.toFixed(0)} items/min (arrivals: ${TARGET_RATE_PER_MIN}/min; not a target of the issue: ${perMin >= TARGET_RATE_PER_MIN ? 'keeps up' : 'falls behind'}); ${written.rows[0]!.n} notifications, ${written.rows[0]!.d} pending email deliveries`,
  );

  // 3. The digest run for all users: a week later, everything pending is due.
  // The Mailer pools SMTP connections by default (mail/mailer.ts pooledSmtpUrl); BENCH_NOTIFY_SMTP_POOL=0
  // measures a connection per mail instead (SMTP_URL with ?pool=false).
  const smtpUrl = process.env.BENCH_NOTIFY_SMTP_POOL === '0' ? `${smtp.url}/?pool=false` : smtp.url;
  const mailer = new Mailer(db, silent, { smtpUrl, from: '"Otklik" <noreply@example.test>' });
  const job = new NotificationDeliveryJob({
    db,
    log: silent,
    mailer,
    sealer,
    appUrl: config.appUrl,
    spaceIds,
  });
  const users = await query<{ n: number }>(
    `SELECT count(DISTINCT user_id)::int AS n FROM notification_deliveries WHERE space_id = ANY($1) AND state = 'pending' AND channel = 'email'`,
    [spaceIds],
  );
  const later = new Date(Date.now() + 8 * 86_400_000);
  const digestStarted = performance.now();
  const digestCpu = process.cpuUsage();
  let mails = 0;
  let rounds = 0;
  for (; rounds < MAX_DIGEST_ROUNDS; rounds++) {
    const sent = await job.tick(later);
    mails += sent;
    if (sent === 0) break;
  }
  const digestS = (performance.now() - digestStarted) / 1000;
  const cpu = process.cpuUsage(digestCpu);
  const digestCpuS = (cpu.user + cpu.system) / 1e6;
  const left = await query<{ state: string; n: number }>(
    `SELECT state, count(*)::int AS n FROM notification_deliveries WHERE space_id = ANY($1) AND channel = 'email' GROUP BY state ORDER BY state`,
    [spaceIds],
  );
  const received = smtp.mails.length;
  console.log(
    `digest run for ${users.rows[0]!.n} users: ${mails} mails (${received} received by the SMTP sink) in ${digestS.toFixed(1)} s (this process's CPU meanwhile ${digestCpuS.toFixed(1)} s, the SMTP sink's share included), ${rounds} ticks; deliveries ${left.rows.map((r) => `${r.state} ${r.n}`).join(', ')} (target ≤ ${TARGET_DIGEST_S} s) ${verdict(digestS <= TARGET_DIGEST_S && received === mails)}`,
  );
  mailer.close();
  await smtp.close();
  await database.close();
}

await main();
