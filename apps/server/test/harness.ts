import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { WEB_CLIENT_ID } from '@otklik/shared';
import { type Env, testConfig } from '../src/config';
import { type Database, openDatabase } from '../src/db/client';
import { createRuntime, type Runtime } from '../src/runtime';

export const WEB_CLIENT = { client_id: WEB_CLIENT_ID, client_secret: 'otklik-web-public' } as const;

let sharedDb: Promise<Database> | undefined;

/**
 * The database for this test file: the PostgreSQL server when DATABASE_URL is set (CI), otherwise one
 * in-memory PGlite per file. Tests never truncate: each makes unique data (uniqueEmail) instead.
 */
export function testDatabase(): Promise<Database> {
  sharedDb ??= process.env.DATABASE_URL
    ? openDatabase({ url: process.env.DATABASE_URL })
    : openDatabase({ inMemory: true });
  return sharedDb;
}

export interface TestApp extends Runtime {
  logs: string[];
}

/** A full runtime (same wiring as `npm start`) on the test database; `app.inject` needs no port. */
export async function createTestApp(overrides: Partial<Record<keyof Env, string>> = {}): Promise<TestApp> {
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
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    ...overrides,
  });
  const database = await testDatabase();
  const runtime = await createRuntime(config, { database, logStream, startBackground: false });
  return { ...runtime, logs };
}

export function uniqueEmail(tag = 'user'): string {
  return `${tag}-${randomUUID().slice(0, 12)}@example.test`;
}

export const STRONG_PASSWORD = 'Secret-pass1';
