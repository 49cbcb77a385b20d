import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Database, openDatabase } from './client';

// PostgreSQL only (PGlite has no connection to lose): a session the server ends while the app holds it
// inside a transaction, between two statements — as a server restart or failover does. The transaction
// fails, the process survives (an unheard 'error' event on the pool's client used to crash it), and the
// pool serves the next statement on a new connection. The whole-process version, with the server
// stopped under load: e2e/faults/postgres-restart.faults.ts (`npm run faults`).
const url = process.env.DATABASE_URL;

describe.skipIf(!url)('a PostgreSQL connection lost mid-transaction', () => {
  let database: Database;
  let other: Database;
  beforeAll(async () => {
    [database, other] = await Promise.all([openDatabase({ url }), openDatabase({ url })]);
  });
  afterAll(async () => {
    await Promise.all([database?.close(), other?.close()]);
  });

  it('fails that transaction only; the process and the pool carry on', async () => {
    const transaction = database.db.transaction(async (tx) => {
      const result = (await tx.execute(sql`SELECT pg_backend_pid() AS pid`)) as unknown as {
        rows: Array<{ pid: number }>;
      };
      const pid = Number(result.rows[0]!.pid);
      await other.query('SELECT pg_terminate_backend($1)', [pid]);
      await vi.waitFor(
        async () => {
          const left = await other.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid]);
          expect(left.rows).toEqual([]);
        },
        { timeout: 10_000, interval: 20 },
      );
      await tx.execute(sql`SELECT 1`);
    });
    await expect(transaction).rejects.toThrow();
    expect((await database.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });
});
