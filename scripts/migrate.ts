// `npm run db:migrate`: applies the database migrations and exits — the Helm chart's pre-install and
// pre-upgrade Job and compose's `migrate` service (README "Deploying"). Servers migrate at start as well
// (under a PostgreSQL advisory lock, so nodes starting together take turns); running this first lets a
// rollout start new pods on an already migrated database. Reads the same environment as `npm start`.
import { readFileSync } from 'node:fs';
import { DatabaseError, openDatabase } from '../apps/server/src/db/client';
import { ConfigError, loadConfig } from '../apps/server/src/lib/config';
import { lockDataDir } from '../apps/server/src/lib/data-dir-lock';

async function main(): Promise<void> {
  const config = loadConfig();
  const unlock = config.DATABASE_URL ? undefined : lockDataDir(config.dataDir);
  try {
    const database = await openDatabase({
      url: config.DATABASE_URL,
      dataDir: config.dataDir,
      seed: config.PGLITE_SEED ? new Blob([readFileSync(config.PGLITE_SEED)]) : undefined,
    });
    await database.close();
    process.stdout.write('Migrations applied.\n');
  } finally {
    unlock?.();
  }
}

main().catch((error: unknown) => {
  const known = error instanceof ConfigError || error instanceof DatabaseError;
  const message =
    error instanceof Error ? (known ? error.message : (error.stack ?? error.message)) : String(error);
  process.stderr.write(`Migrations failed: ${message}\n`);
  process.exit(1);
});
