// Runs in each browser-test file's process before its tests (setupFiles): on PostgreSQL it points this
// file's servers, `npm run admin` calls and direct connections at its worker slot's own database, Redis
// key prefix and DATA_DIR (see workers.ts).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, expect } from 'vitest';
import { failureShots } from './browser';
import { TEST_FILE_ENV } from './timing';
import { slotDatabaseUrl } from './workers';

const baseUrl = process.env.E2E_BASE_DATABASE_URL;
if (baseUrl) {
  const slot = Number(process.env.VITEST_POOL_ID ?? 1);
  process.env.DATABASE_URL = slotDatabaseUrl(baseUrl, slot);
  process.env.REDIS_KEY_PREFIX = `${process.env.E2E_REDIS_PREFIX ?? 'otklik-e2e:'}${slot}:`;
  if (process.env.E2E_SHARED_DATA_ROOT) {
    const dir = join(process.env.E2E_SHARED_DATA_ROOT, `slot-${slot}`);
    mkdirSync(dir, { recursive: true });
    process.env.E2E_SHARED_DATA_DIR = dir;
  }
}

// The test file this process runs, for startApp's timing record (timing.ts).
beforeAll(() => {
  process.env[TEST_FILE_ENV] = expect.getState().testPath ?? '';
});

// A failed test (a first try that the retry passes included) leaves screenshots of its open pages.
afterEach(async ({ task }) => {
  if (task.result?.state === 'fail') await failureShots(`${task.name}-try${task.result.retryCount ?? 0}`);
});
