// Runs once before the unit and integration files (and the e2e files, see e2e/harness/global-setup.ts):
// migrates one empty PGlite database and saves it as a tarball, so each test file's database (and each
// e2e server's) starts from it instead of running every migration again — about 2 s saved per file.
// With DATABASE_URL each worker slot gets a database of its own on that server (slot-databases.ts), made
// empty here and migrated by its first file.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migratedPgliteTarball, openDatabase } from '../src/db/client';
import { resetSlotDatabases, UNIT_BASE_URL_ENV, unitWorkers } from './slot-databases';

/** The env variable naming the tarball: read by the harness (unit) and passed to servers as PGLITE_SEED (e2e). */
export const SEED_ENV = 'OTKLIK_TEST_PGLITE_SEED';
/**
 * The env variable naming the same database unpacked: a PGlite data folder (`<DATA_DIR>/pg`) that servers
 * started by tests get a copy of (`seedDataDir`) — copying 46 MB of files costs far less than PGlite's
 * unpacking of the tarball at every start (about 1 s of CPU per server start, measured).
 */
export const SEED_DIR_ENV = 'OTKLIK_TEST_PGLITE_SEED_DIR';

export async function preparePgliteSeed(): Promise<(() => void) | undefined> {
  if (process.env.DATABASE_URL || process.env[SEED_ENV]) return undefined;
  const folder = mkdtempSync(join(tmpdir(), 'otklik-pglite-seed-'));
  const file = join(folder, 'migrated.tar');
  writeFileSync(file, Buffer.from(await (await migratedPgliteTarball()).arrayBuffer()));
  // The unpacked folder: PGlite opens a DATA_DIR's `pg` folder; opened once here from the tarball, closed.
  const unpacked = join(folder, 'data');
  const database = await openDatabase({ dataDir: unpacked, seed: new Blob([readFileSync(file)]) });
  await database.close();
  process.env[SEED_ENV] = file;
  process.env[SEED_DIR_ENV] = join(unpacked, 'pg');
  return () => {
    delete process.env[SEED_ENV];
    delete process.env[SEED_DIR_ENV];
    rmSync(folder, { recursive: true, force: true });
  };
}

/**
 * Gives a server's new DATA_DIR the migrated database (a copy of the unpacked seed) when this run has one
 * and the folder has no database yet; the server then opens it as its own (and still migrates it, should
 * the seed be older than the code).
 */
export function seedDataDir(dataDir: string): void {
  const seed = process.env[SEED_DIR_ENV];
  const target = join(dataDir, 'pg');
  if (process.env.DATABASE_URL || !seed || existsSync(join(target, 'PG_VERSION'))) return;
  mkdirSync(dataDir, { recursive: true });
  cpSync(seed, target, { recursive: true });
}

/** The unit suite's setup: the PGlite seed, or on PostgreSQL the worker slots' databases. */
export default async function setup(): Promise<(() => void | Promise<void>) | undefined> {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) return preparePgliteSeed();
  process.env[UNIT_BASE_URL_ENV] = baseUrl;
  const drop = await resetSlotDatabases(baseUrl, 'unit', unitWorkers());
  return async () => {
    await drop();
    delete process.env[UNIT_BASE_URL_ENV];
  };
}
