import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { WEB_CLIENT_ID } from '@otklik/shared';
import pg from 'pg';
import { type Database, openDatabase } from '../src/db/client';
import { type Env, testConfig } from '../src/lib/config';
import type { MediaNetwork } from '../src/providers/public-network';
import { createRuntime, type Runtime } from '../src/runtime';
import { SEED_ENV } from './global-setup';

export const WEB_CLIENT = { client_id: WEB_CLIENT_ID, client_secret: 'otklik-web-public' } as const;

let sharedDb: Promise<Database> | undefined;

/**
 * The database for this test file: the PostgreSQL server when DATABASE_URL is set (CI), otherwise one
 * in-memory PGlite per file. Tests never truncate: each makes unique data (uniqueEmail) instead.
 */
export function testDatabase(): Promise<Database> {
  sharedDb ??= process.env.DATABASE_URL
    ? openDatabase({ url: process.env.DATABASE_URL })
    : openDatabase({ inMemory: true, seed: seedTarball() });
  return sharedDb;
}

/**
 * A database of one test file's own, for suites that compare another space's rows before and after
 * (http/tenant-matrix.test.ts): on PostgreSQL the shared database is also written by other files' jobs
 * running at the same time, which such a suite would read as its own doing. With DATABASE_URL a new
 * database on that server (migrated on open, dropped by `drop`); otherwise a fresh in-memory PGlite.
 */
export async function privateTestDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const database = await openDatabase({ inMemory: true, seed: seedTarball() });
    return { database, drop: () => database.close() };
  }
  const name = `otklik_private_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const own = new URL(url);
  own.pathname = `/${name}`;
  const database = await openDatabase({ url: own.toString() });
  return {
    database,
    drop: async () => {
      await database.close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** The migrated database the unit global setup saved (test/global-setup.ts); none when run without it. */
function seedTarball(): Blob | undefined {
  const file = process.env[SEED_ENV];
  return file && existsSync(file) ? new Blob([readFileSync(file)]) : undefined;
}

export interface TestApp extends Runtime {
  logs: string[];
}

/** A full runtime (same wiring as `npm start`) on the test database; `app.inject` needs no port. */
export async function createTestApp(
  overrides: Partial<Record<keyof Env, string>> = {},
  opts: { mediaNetwork?: MediaNetwork; database?: Database } = {},
): Promise<TestApp> {
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const config = testConfig({
    LOG_LEVEL: 'info',
    // Tests share one client IP; the limiter tests set their own limits and addresses.
    AUTH_RATE_LIMIT_PER_IP: '100000',
    SIGNUP_RATE_LIMIT_PER_IP: '100000',
    SIGNUP_RATE_LIMIT_GLOBAL: '100000',
    AUTH_FAILURES_PER_IP: '100000',
    // Files kept from networks go to a folder of this app's own: ids restart in every fresh database,
    // so a shared folder would serve one run's file to another (and the repository's ./data stays clean).
    DATA_DIR: overrides.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'otklik-test-')),
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    // This worker's slot on a shared Redis (test/worker-env.ts).
    ...(process.env.REDIS_KEY_PREFIX ? { REDIS_KEY_PREFIX: process.env.REDIS_KEY_PREFIX } : {}),
    ...overrides,
  });
  const { database: own, ...runtimeOpts } = opts;
  const database = own ?? (await testDatabase());
  const runtime = await createRuntime(config, {
    database,
    logStream,
    startBackground: false,
    ...runtimeOpts,
  });
  const ownDataDir = overrides.DATA_DIR === undefined;
  return {
    ...runtime,
    logs,
    close: async () => {
      await runtime.close();
      if (ownDataDir) rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

export function uniqueEmail(tag = 'user'): string {
  return `${tag}-${randomUUID().slice(0, 12)}@example.test`;
}

export const STRONG_PASSWORD = 'Secret-pass1';
