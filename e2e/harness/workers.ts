// How many browser-test files run at once, and — on PostgreSQL — the database each of those slots uses.
//
// On the embedded database every server has its own PGlite in its own DATA_DIR. On PostgreSQL (DATABASE_URL)
// the servers of one file are nodes of one deployment (one database, one Redis key prefix, one DATA_DIR),
// but two files running at once must not be: any node runs any node's queued work (outbox, jobs), while
// each test points its own server at its own emulators. So each worker slot (VITEST_POOL_ID, 1…workers)
// gets its own database `<database>_e2e_<slot>`, made empty by the global setup, its own Redis key prefix
// (REDIS_KEY_PREFIX) and its own DATA_DIR, and files of one slot run one after another as before.
import {
  resetSlotDatabases as reset,
  slotDatabaseUrl as slotUrl,
} from '../../apps/server/test/slot-databases';

/**
 * Files at a time: three on both databases. On this project's 2-core machines two left ~19 % of the CPU
 * idle (a file waits on its browser and server in turn); three took the whole suite from 904 s to 784 s
 * on PGlite and from 801 s to 641 s on PostgreSQL (2026-11-27, quiet, no flaky test). E2E_WORKERS overrides.
 */
export function e2eWorkers(): number {
  const fromEnv = Number(process.env.E2E_WORKERS);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : 3;
}

/** The database of a worker slot, on the server of `baseUrl` (`<database>_e2e_<slot>`). */
export const slotDatabaseUrl = (baseUrl: string, slot: number) => slotUrl(baseUrl, 'e2e', slot);

/** Drops and creates every slot's database; answers the drop for the end of the run. */
export const resetSlotDatabases = (baseUrl: string, slots: number) => reset(baseUrl, 'e2e', slots);
