// Worker slots on PostgreSQL: when test files run several at a time against one PostgreSQL server
// (DATABASE_URL), each worker slot (VITEST_POOL_ID, 1…workers) gets a database of its own,
// `<database>_<suite>_<slot>`, made empty at the start of the run and dropped at its end, and its own Redis
// key prefix. Files of one slot run one after another and may share what they write (tests make unique
// data); two slots must not: a runtime runs any queued work it finds in its database (outbox, jobs) and
// listens to its Redis prefix, while each file points its runtimes at its own emulators — and ids restart
// in every database, so one slot's "user 5" is not another's. Used by the unit suite (test/worker-env.ts)
// and the browser suite (e2e/harness/worker-env.ts).
import { availableParallelism } from 'node:os';
import pg from 'pg';

export type Suite = 'unit' | 'e2e';

/** The database of a worker slot, on the server of `baseUrl`. */
export function slotDatabaseUrl(baseUrl: string, suite: Suite, slot: number): string {
  const url = new URL(baseUrl);
  const base = url.pathname.replace(/^\//, '') || 'postgres';
  url.pathname = `/${base}_${suite}_${slot}`;
  return url.toString();
}

/** This process's worker slot (1 outside a vitest worker). */
export const workerSlot = () => Number(process.env.VITEST_POOL_ID ?? 1);

/**
 * Drops and creates every slot's database (an earlier run's leftovers go, whatever it left connected);
 * answers the drop for the end of the run.
 */
export async function resetSlotDatabases(
  baseUrl: string,
  suite: Suite,
  slots: number,
): Promise<() => Promise<void>> {
  const names = Array.from({ length: slots }, (_, i) =>
    new URL(slotDatabaseUrl(baseUrl, suite, i + 1)).pathname.slice(1),
  );
  const run = async (statements: string[]) => {
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    try {
      for (const sql of statements) await admin.query(sql);
    } finally {
      await admin.end();
    }
  };
  const drops = names.map((name) => `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await run([...drops, ...names.map((name) => `CREATE DATABASE "${name}"`)]);
  return () => run(drops);
}

/**
 * Unit and integration files at a time (vitest.config.ts). Vitest's default is one fork fewer than the
 * cores — a single fork on a 2-core machine, leaving a core idle while PGlite (in the fork) or PostgreSQL
 * (beside it) works on the other; so at least two. UNIT_WORKERS overrides.
 */
export function unitWorkers(): number {
  const fromEnv = Number(process.env.UNIT_WORKERS);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : Math.max(2, availableParallelism() - 1);
}

/** Names the server the unit slots' databases are made on (set by the global setup, read by worker-env). */
export const UNIT_BASE_URL_ENV = 'OTKLIK_UNIT_BASE_DATABASE_URL';
