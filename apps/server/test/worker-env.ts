// Runs in each unit/integration worker before its files (vitest.config.ts setupFiles): on PostgreSQL it
// points this worker's runtimes, server processes and direct connections at its slot's own database and
// Redis key prefix (slot-databases.ts). The embedded database needs nothing: each worker has its own.
import { slotDatabaseUrl, UNIT_BASE_URL_ENV, workerSlot } from './slot-databases';

const baseUrl = process.env[UNIT_BASE_URL_ENV];
if (baseUrl) {
  process.env.DATABASE_URL = slotDatabaseUrl(baseUrl, 'unit', workerSlot());
  process.env.REDIS_KEY_PREFIX = `otklik-unit:${workerSlot()}:`;
}
