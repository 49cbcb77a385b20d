// Seeds a PostgreSQL database for bench/inbox.bench.ts: one space with 1,000,000 items and 200,000
// chats (400,000 messages), 5 accounts, 100,000 authors, 2,000 posts, 20 tags on ~10% of the items.
// Everything is set-based (INSERT … SELECT generate_series) in bounded chunks, so it takes a few
// minutes on 2 cores. Seeding runs once: the space is renamed to SEEDED_NAME when it is complete, and
// a half-seeded database (an interrupted run) is dropped and seeded again.
//
//   node --import tsx bench/seed-inbox.ts            # seed only
//   DATABASE_URL=postgres://… node --import tsx bench/seed-inbox.ts
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { type Database, openDatabase } from '../apps/server/src/db/client';
import { hashPassword } from '../apps/server/src/modules/auth/passwords';
import { createTrialSpace } from '../apps/server/src/modules/spaces/service';

export const BENCH_DATABASE_URL =
  process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/otklik_bench';

export const ITEM_COUNT = 1_000_000;
export const CHAT_COUNT = 200_000;
const MESSAGES_PER_CHAT = 2;
const AUTHOR_COUNT = 100_000;
const POST_COUNT = 2_000;
const TAG_COUNT = 20;
const CHUNK = 100_000;
/** Items span this many days back from the seeding time (about one item a minute). */
export const SPAN_DAYS = 730;

const SEEDING_NAME = 'Bench inbox (seeding)';
const SEEDED_NAME = 'Bench inbox v3';
export const BENCH_EMAIL = 'bench-inbox@example.test';
export const BENCH_PASSWORD = 'Bench-pass1';
export const PROVIDERS = ['vk', 'telegram', 'instagram', 'gmaps', 'sandbox'] as const;

export interface SeededInbox {
  spaceId: number;
  userId: number;
  objectIds: number[];
  tagIds: number[];
}

// Phrases customers write, Russian and English, combined per row so texts vary and full-text search has
// common words (заказ, order) and rarer ones (артикул NNNN) to find.
const PHRASES = [
  'Где мой заказ? Жду уже неделю',
  'Спасибо за быструю доставку',
  'Приложение не работает после обновления',
  'Когда будет скидка на зимнюю коллекцию',
  'Верните деньги за отменённый заказ',
  'Курьер опоздал на два часа',
  'Отличный сервис, буду заказывать ещё',
  'Ужасное обслуживание в магазине на Тверской',
  'Как оформить возврат товара',
  'Товар пришёл повреждённым, коробка помята',
  'Подскажите размер, пожалуйста',
  'Оператор не отвечает в чате',
  'Where is my order? Still waiting',
  'Great service, thanks a lot',
  'The app keeps crashing on startup',
  'I want a refund for the cancelled order',
  'Delivery was late again',
  'Do you ship to Kazakhstan?',
  'Support never answers my emails',
  'Love the new collection!',
];

export async function ensureDatabase(url: string) {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

async function dropDatabase(url: string) {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

async function findSeeded(database: Database): Promise<SeededInbox | null> {
  const { rows } = await database.query<{ id: number; created_by: number }>(
    'SELECT id, created_by FROM spaces WHERE name = $1',
    [SEEDED_NAME],
  );
  const space = rows[0];
  if (!space) return null;
  const objects = await database.query<{ id: number }>(
    'SELECT id FROM objects WHERE space_id = $1 AND name LIKE $2 ORDER BY id',
    [space.id, 'Bench account %'],
  );
  const tags = await database.query<{ id: number }>('SELECT id FROM tags WHERE space_id = $1 ORDER BY id', [
    space.id,
  ]);
  return {
    spaceId: space.id,
    userId: space.created_by,
    objectIds: objects.rows.map((r) => Number(r.id)),
    tagIds: tags.rows.map((r) => Number(r.id)),
  };
}

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** Seeds the bench database unless it already is; returns what the benchmark needs to know. */
export async function seedInbox(url = BENCH_DATABASE_URL, log = console.log): Promise<SeededInbox> {
  await ensureDatabase(url);
  let database = await openDatabase({ url });
  try {
    const seeded = await findSeeded(database);
    if (seeded) {
      log(`seed: already seeded (space ${seeded.spaceId})`);
      return seeded;
    }
    // An interrupted seed, or one by an older version of this script: start from an empty database.
    const stale = await database.query("SELECT 1 FROM spaces WHERE name LIKE 'Bench inbox%'");
    if (stale.rows.length > 0) {
      log('seed: found an interrupted or outdated seed; recreating the database');
      await database.close();
      await dropDatabase(url);
      await ensureDatabase(url);
      database = await openDatabase({ url });
    }
    return await seed(database, log);
  } finally {
    await database.close();
  }
}

async function seed(database: Database, log: (line: string) => void): Promise<SeededInbox> {
  const q = database.query;
  const started = performance.now();
  log(`seed: ${ITEM_COUNT.toLocaleString('en')} items, ${CHAT_COUNT.toLocaleString('en')} chats…`);

  const { rows: userRows } = await q<{ id: number }>(
    `INSERT INTO users (name, email, password_hash, email_status) VALUES ('Bench Operator', $1, $2, 1)
     ON CONFLICT (email) DO UPDATE SET password_hash = EXCLUDED.password_hash RETURNING id`,
    [BENCH_EMAIL, await hashPassword(BENCH_PASSWORD)],
  );
  const userId = Number(userRows[0]!.id);
  const space = await createTrialSpace(database.db, { name: SEEDING_NAME, ownerId: userId });
  // A paid space far from expiry: the benchmark must not run into the access gate.
  await q(`UPDATE spaces SET is_trial = false, expires_at = now() + interval '10 years' WHERE id = $1`, [
    space.id,
  ]);

  const { rows: objectRows } = await q<{ id: number }>(
    `INSERT INTO objects (space_id, provider, name)
     SELECT $1, p, 'Bench account ' || p FROM unnest($2::text[]) WITH ORDINALITY AS t(p, n) ORDER BY n
     RETURNING id`,
    [space.id, PROVIDERS],
  );
  const objectIds = objectRows.map((r) => Number(r.id)).sort((a, b) => a - b);
  const { rows: tagRows } = await q<{ id: number }>(
    `INSERT INTO tags (space_id, name) SELECT $1, 'Тег ' || g FROM generate_series(1, $2::int) g RETURNING id`,
    [space.id, TAG_COUNT],
  );
  const tagIds = tagRows.map((r) => Number(r.id)).sort((a, b) => a - b);

  // Author k and post k belong to account k % 5; item g uses author g % AUTHOR_COUNT and post
  // g % POST_COUNT, both multiples of 5, so every item's author and post match its account.
  let step = performance.now();
  await q(
    `INSERT INTO authors (space_id, provider, external_id, name, screen_name)
     SELECT $1, ($3::text[])[1 + g % 5], 'a' || g, 'Покупатель ' || g, 'user' || g
     FROM generate_series(0, $2::int - 1) g`,
    [space.id, AUTHOR_COUNT, PROVIDERS],
  );
  const authorBase = Number(
    (await q<{ min: number }>('SELECT min(id) AS min FROM authors WHERE space_id = $1', [space.id])).rows[0]!
      .min,
  );
  await q(
    `INSERT INTO posts (space_id, object_id, external_id, text, posted_at)
     SELECT $1, ($3::int[])[1 + g % 5], 'post' || g, 'Пост номер ' || g, now() - make_interval(days => g % 700)
     FROM generate_series(0, $2::int - 1) g`,
    [space.id, POST_COUNT, objectIds],
  );
  const postBase = Number(
    (await q<{ min: number }>('SELECT min(id) AS min FROM posts WHERE space_id = $1', [space.id])).rows[0]!
      .min,
  );
  log(`seed: accounts, tags, ${AUTHOR_COUNT.toLocaleString('en')} authors, posts (${seconds(step)})`);

  // Items: g = 0 is the oldest; account g % 5. Status mix of a working inbox: ~6% new, ~3% in
  // progress, a few delayed/waiting/deleted, the rest closed; 5% our own replies; 15% reviews,
  // 5% mentions; 30% assigned to the operator; texts from two phrases. Each of these comes from its
  // own multiplicative hash of g (h_k = g * k mod a prime), so they are spread evenly over accounts,
  // time and each other, as real data is — a plain g % n would tie them all to the account pattern.
  for (let from = 0; from < ITEM_COUNT; from += CHUNK) {
    step = performance.now();
    const to = Math.min(from + CHUNK, ITEM_COUNT) - 1;
    await q(
      `INSERT INTO items (space_id, object_id, post_id, kind, external_id, author_id, is_own, user_id, text,
                          rating, status, close_reason, assigned_user_id, delivery, created_at, received_at,
                          updated_at, closed_at)
       SELECT $1, ($5::int[])[1 + g % 5], $7 + g % $8, kind, 'seed' || g,
              CASE WHEN own THEN NULL ELSE $6 + g % $9 END, own, CASE WHEN own THEN $10::int END,
              ($11::text[])[1 + (g * 48271) % 1000003 % 20] || '. ' || ($11::text[])[1 + (g * 16807) % 1000003 % 20]
                || ', артикул ' || ((g * 69621) % 1000003 % 5000),
              CASE WHEN kind = 'review' THEN 1 + g % 5 END,
              status, CASE WHEN status = 'closed' THEN (ARRAY['reply','reply','noreply','autorule'])[1 + g % 4] END,
              CASE WHEN (g * 1103515245) % 1000003 % 10 < 3 THEN $10::int END,
              CASE WHEN own THEN 'sent' ELSE 'received' END,
              at, at, at, CASE WHEN status = 'closed' THEN at + interval '1 hour' END
       FROM (
         SELECT g, own,
                now() - make_interval(days => $12) + (g * (interval '1 day' * $12 / $4)) AS at,
                CASE WHEN own THEN 'closed'
                     ELSE (CASE (g * 2654435761) % 1000003 % 100
                            WHEN 0 THEN 'new' WHEN 1 THEN 'new' WHEN 2 THEN 'new' WHEN 3 THEN 'new'
                            WHEN 4 THEN 'new' WHEN 5 THEN 'new' WHEN 6 THEN 'inprogress' WHEN 7 THEN 'inprogress'
                            WHEN 8 THEN 'inprogress' WHEN 9 THEN 'delayed' WHEN 10 THEN 'waiting'
                            WHEN 11 THEN 'deleted' ELSE 'closed' END) END AS status,
                CASE WHEN (g * 40503) % 1000003 % 20 < 3 THEN 'review'
                     WHEN (g * 40503) % 1000003 % 20 = 3 THEN 'mention' ELSE 'comment' END AS kind
         FROM (SELECT g::bigint AS g, (g::bigint * 69069) % 1000003 % 20 = 0 AS own
               FROM generate_series($2::int, $3::int) g) gs
       ) s`,
      [
        space.id,
        from,
        to,
        ITEM_COUNT,
        objectIds,
        authorBase,
        postBase,
        POST_COUNT,
        AUTHOR_COUNT,
        userId,
        PHRASES,
        SPAN_DAYS,
      ],
    );
    log(`seed: items ${(to + 1).toLocaleString('en')} (${seconds(step)})`);
  }

  // Tags on ~10% of the items (one tag), a third of those with a second tag. Which items and which
  // tags come from a multiplicative hash of the id, so tags are spread over accounts, statuses and
  // time instead of following the account pattern (id % 5) of the items.
  step = performance.now();
  await q(
    `INSERT INTO item_tags (item_id, tag_id, space_id)
     SELECT id, ($2::int[])[1 + h % $3], $1
     FROM (SELECT id, (id * 1597334677) % 1000003 AS h FROM items WHERE space_id = $1) s WHERE h % 100 < 10
     UNION ALL
     SELECT id, ($2::int[])[1 + (h + 7) % $3], $1
     FROM (SELECT id, (id * 1597334677) % 1000003 AS h FROM items WHERE space_id = $1) s WHERE h % 100 < 3`,
    [space.id, tagIds, TAG_COUNT],
  );
  log(`seed: item tags (${seconds(step)})`);

  for (let from = 0; from < CHAT_COUNT; from += CHUNK) {
    step = performance.now();
    const to = Math.min(from + CHUNK, CHAT_COUNT) - 1;
    await q(
      `INSERT INTO chats (space_id, object_id, external_id, author_id, status, close_reason, assigned_user_id,
                          last_message_at, last_message_text, last_message_is_own, unread_count, created_at, updated_at)
       SELECT $1, ($5::int[])[1 + g % 5], 'chat' || g, $6 + g % $7, status,
              CASE WHEN status = 'closed' THEN 'reply' END, CASE WHEN (g::bigint * 1103515245) % 1000003 % 10 < 3 THEN $8::int END,
              at, ($9::text[])[1 + (g::bigint * 48271) % 1000003 % 20], g % 2 = 1, CASE WHEN status = 'new' THEN 1 + g % 3 ELSE 0 END,
              at - interval '1 day', at
       FROM (
         SELECT g, now() - make_interval(days => $10) + (g * (interval '1 day' * $10 / $4)) AS at,
                CASE (g::bigint * 2654435761) % 1000003 % 20 WHEN 0 THEN 'new' WHEN 1 THEN 'new' WHEN 2 THEN 'inprogress'
                                     WHEN 3 THEN 'open' WHEN 4 THEN 'waiting' ELSE 'closed' END AS status
         FROM generate_series($2::int, $3::int) g
       ) s`,
      [space.id, from, to, CHAT_COUNT, objectIds, authorBase, AUTHOR_COUNT, userId, PHRASES, SPAN_DAYS],
    );
    log(`seed: chats ${(to + 1).toLocaleString('en')} (${seconds(step)})`);
  }

  step = performance.now();
  const { rows: chatRange } = await q<{ min: number; max: number }>(
    'SELECT min(id) AS min, max(id) AS max FROM chats WHERE space_id = $1',
    [space.id],
  );
  const chatMin = Number(chatRange[0]!.min);
  const chatMax = Number(chatRange[0]!.max);
  for (let from = chatMin; from <= chatMax; from += CHUNK) {
    await q(
      `INSERT INTO messages (space_id, chat_id, external_id, is_own, user_id, text, delivery, created_at, received_at)
       SELECT c.space_id, c.id, 'msg' || c.id || '-' || n, n = 2, CASE WHEN n = 2 THEN $4::int END,
              CASE WHEN n = 1 THEN ($5::text[])[1 + (c.id * 16807) % 1000003 % 20] || ', заказ ' || (c.id % 5000)
                   ELSE 'Здравствуйте! Уже проверяем, номер обращения ' || c.id END,
              CASE WHEN n = 2 THEN 'sent' ELSE 'received' END,
              c.last_message_at - (interval '10 minutes' * (${MESSAGES_PER_CHAT} - n)), c.last_message_at
       FROM chats c CROSS JOIN generate_series(1, ${MESSAGES_PER_CHAT}) n
       WHERE c.space_id = $1 AND c.id BETWEEN $2 AND $3`,
      [space.id, from, Math.min(from + CHUNK - 1, chatMax), userId, PHRASES],
    );
  }
  log(`seed: ${(CHAT_COUNT * MESSAGES_PER_CHAT).toLocaleString('en')} messages (${seconds(step)})`);

  // Fresh statistics and a set visibility map, as a long-running database would have: the planner's
  // estimates and index-only scans depend on them.
  step = performance.now();
  for (const table of ['authors', 'posts', 'items', 'item_tags', 'chats', 'messages', 'inbox_counters']) {
    await q(`VACUUM (ANALYZE) ${table}`);
  }
  log(`seed: vacuum analyze (${seconds(step)})`);

  await q('UPDATE spaces SET name = $2 WHERE id = $1', [space.id, SEEDED_NAME]);
  log(`seed: done in ${seconds(started)}`);
  return { spaceId: space.id, userId, objectIds, tagIds };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  seedInbox()
    .then((info) => console.log(JSON.stringify(info)))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
