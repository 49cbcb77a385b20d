// Runs once before the unit and integration files (and the e2e files, see e2e/harness/global-setup.ts):
// migrates one empty PGlite database and saves it as a tarball, so each test file's database (and each
// e2e server's) starts from it instead of running every migration again — about 2 s saved per file.
// With DATABASE_URL the tests share the PostgreSQL server, migrated once by the first file: nothing to do.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migratedPgliteTarball } from '../src/db/client';

/** The env variable naming the tarball: read by the harness (unit) and passed to servers as PGLITE_SEED (e2e). */
export const SEED_ENV = 'OTKLIK_TEST_PGLITE_SEED';

export async function preparePgliteSeed(): Promise<(() => void) | undefined> {
  if (process.env.DATABASE_URL || process.env[SEED_ENV]) return undefined;
  const folder = mkdtempSync(join(tmpdir(), 'otklik-pglite-seed-'));
  const file = join(folder, 'migrated.tar');
  writeFileSync(file, Buffer.from(await (await migratedPgliteTarball()).arrayBuffer()));
  process.env[SEED_ENV] = file;
  return () => {
    delete process.env[SEED_ENV];
    rmSync(folder, { recursive: true, force: true });
  };
}

export default preparePgliteSeed;
