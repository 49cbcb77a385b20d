// Runs once before the e2e files: the server serves apps/web/dist, so build it when it is stale
// (`npm test` has just built it; a direct `npm run test:e2e` may not have).
//
// The build is then copied to a temporary folder that every server of this run serves (WEB_DIST, set
// by startApp from E2E_WEB_DIST): a rebuild of apps/web/dist while the suite runs (another `npm run
// build`, a dev watcher) replaces the hashed chunks under a page that is loading and breaks it.
// E2E_WEB_SNAPSHOT=0 serves apps/web/dist directly.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { preparePgliteSeed } from '../../apps/server/test/global-setup';
import { repoRoot } from './paths';
import { buildServerBundle } from './server-bundle';
import { e2eWorkers, resetSlotDatabases } from './workers';

export default async function setup(): Promise<(() => void) | undefined> {
  // Every embedded-database server of this run starts from one migrated database (PGLITE_SEED).
  const dropSeed = await preparePgliteSeed();
  // Every server of this run starts from one bundle of main.ts (server-bundle.ts).
  const dropBundle = await buildServerBundle();
  const dropWeb = setupWeb();
  const dropShared = setupSharedDataDir();
  const dropSlots = await setupSlotDatabases();
  return async () => {
    await dropSlots?.();
    dropShared?.();
    dropWeb?.();
    dropBundle?.();
    dropSeed?.();
  };
}

function setupWeb(): (() => void) | undefined {
  const result = spawnSync(process.execPath, ['scripts/build-web.mjs'], { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) {
    throw new Error(`The web app did not build (exit code ${result.status}); see the output above.`);
  }
  if (process.env.E2E_WEB_SNAPSHOT === '0' || process.env.WEB_DIST) return undefined;
  const snapshot = mkdtempSync(join(tmpdir(), 'otklik-e2e-web-'));
  cpSync(join(repoRoot, 'apps/web/dist'), snapshot, { recursive: true });
  process.env.E2E_WEB_DIST = snapshot;
  return () => rmSync(snapshot, { recursive: true, force: true, maxRetries: 3 });
}

/**
 * With DATABASE_URL the servers of a worker slot share one DATA_DIR (startApp), a folder of the one made
 * here (worker-env.ts) and removed at the end.
 */
function setupSharedDataDir(): (() => void) | undefined {
  if (!process.env.DATABASE_URL) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'otklik-e2e-shared-'));
  process.env.E2E_SHARED_DATA_ROOT = dir;
  return () => rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

/** With DATABASE_URL each worker slot gets an empty database of its own (workers.ts), dropped at the end. */
async function setupSlotDatabases(): Promise<(() => Promise<void>) | undefined> {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) return undefined;
  process.env.E2E_BASE_DATABASE_URL = baseUrl;
  // A run's own prefix: Redis outlives runs, and its rate-limit counters and locks must not carry over.
  process.env.E2E_REDIS_PREFIX = `otklik-e2e-${Date.now().toString(36)}:`;
  return resetSlotDatabases(baseUrl, e2eWorkers());
}
