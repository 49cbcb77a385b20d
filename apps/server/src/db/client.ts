import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema';

export type Schema = typeof schema;
/** The same drizzle API over PGlite (embedded) and node-postgres (server). */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Run raw SQL with positional parameters; used by the job queue adapter and benchmarks. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
  /**
   * The same, as a named prepared statement on the server (planned once per connection): for the few
   * hot statements whose text repeats (list pages). PGlite runs it as a plain query.
   */
  queryPrepared<T = Record<string, unknown>>(
    name: string,
    text: string,
    params: unknown[],
  ): Promise<{ rows: T[] }>;
  /** PostgreSQL only: the connection pool's counts (/metrics); PGlite has no pool. */
  poolStats?(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export class DatabaseError extends Error {}

/** Serialises migrations across nodes starting together against one server. */
const MIGRATION_LOCK_KEY = 724_310_001;

export async function openDatabase(opts: {
  url?: string;
  dataDir?: string;
  inMemory?: boolean;
  /**
   * PGlite only: a tarball of a data folder (PGlite's dumpDataDir) to start from when the folder is new —
   * the test suites start every database from one already migrated, instead of migrating each anew.
   * Migrations still run after it (a stale tarball is brought up to date). A function is called only when
   * the folder is new (a server restarted on its folder does not read a 46 MB file for nothing).
   */
  seed?: Blob | (() => Blob);
}): Promise<Database> {
  if (opts.url) return openPostgres(opts.url);
  return openPglite(opts.inMemory ? undefined : join(opts.dataDir ?? './data', 'pg'), opts.seed);
}

// Each driver is loaded when a database of its kind opens: a server uses one of the two, and loading the
// other (node-postgres on the embedded database, PGlite's JavaScript on PostgreSQL) was a few per cent
// of every start's CPU.
async function loadPglite() {
  const [{ PGlite }, { pg_trgm }, { drizzle }, { migrate }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  return { PGlite, pg_trgm, drizzle, migrate };
}

async function loadPostgres() {
  const [{ default: pg }, { drizzle }, { migrate }] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
    import('drizzle-orm/node-postgres/migrator'),
  ]);
  // bigint columns (ids, counters) stay far below 2^53: read them as numbers, as PGlite does.
  pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
  return { pg, drizzle, migrate };
}

/** A migrated, empty PGlite data folder as a tarball: the seed for `openDatabase({ seed })`. */
export async function migratedPgliteTarball(): Promise<Blob> {
  const { PGlite, pg_trgm, drizzle: drizzlePglite, migrate: migratePglite } = await loadPglite();
  const client = new PGlite({ extensions: { pg_trgm } });
  await client.waitReady;
  try {
    await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder });
    return await client.dumpDataDir('none');
  } finally {
    await client.close();
  }
}

async function openPostgres(url: string): Promise<Database> {
  const { pg, drizzle: drizzlePg, migrate: migratePg } = await loadPostgres();
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000 });
  // An unreachable server must fail start with one line, not an unhandled 'error' event.
  pool.on('error', () => {});
  // The pool listens for errors only on idle connections. One that dies while checked out (a transaction
  // between two statements when the server restarts or ends the session) emits 'error' on its client:
  // unheard, that crashed the whole process (found by e2e/faults/postgres-restart.faults.ts). The
  // statement waiting on it fails anyway, and the pool drops the broken connection when it comes back.
  pool.on('connect', (client) => client.on('error', () => {}));
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end().catch(() => {});
    throw new DatabaseError(`Cannot connect to DATABASE_URL (${redactUrl(url)}): ${describe(error)}`);
  }
  const db = drizzlePg(pool, { schema });
  const lock = await pool.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await migratePg(db, { migrationsFolder });
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
    lock.release();
  }
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    query: async (text, params) => {
      const result = await pool.query(text, params as unknown[]);
      return { rows: result.rows };
    },
    queryPrepared: async (name, text, params) => {
      const result = await pool.query({ name, text, values: params });
      return { rows: result.rows };
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  };
}

async function openPglite(dir: string | undefined, seed: Blob | (() => Blob) | undefined): Promise<Database> {
  const { PGlite, pg_trgm, drizzle: drizzlePglite, migrate: migratePglite } = await loadPglite();
  if (dir) mkdirSync(dirname(dir), { recursive: true });
  // A seed applies only to a folder PGlite has not made yet (PG_VERSION is its first file).
  const fresh = seed && (!dir || !existsSync(join(dir, 'PG_VERSION')));
  const loadDataDir = fresh ? (typeof seed === 'function' ? seed() : seed) : undefined;
  // pg_trgm: the trigram indexes of migration 0013 (authors' name search). PostgreSQL ships it in contrib.
  const client = new PGlite({
    dataDir: dir,
    extensions: { pg_trgm },
    ...(loadDataDir ? { loadDataDir } : {}),
  });
  await client.waitReady;
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    query: async (text, params) => {
      const result = await client.query(text, params as unknown[]);
      return { rows: result.rows as never[] };
    },
    queryPrepared: async (_name, text, params) => {
      const result = await client.query(text, params);
      return { rows: result.rows as never[] };
    },
    close: () => client.close(),
  };
}

export async function pingDatabase(database: Database): Promise<void> {
  await database.db.execute(sql`SELECT 1`);
}

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable URL)';
  }
}

function describe(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return describe(error.errors[0]);
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
