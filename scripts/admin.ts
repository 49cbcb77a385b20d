// `npm run admin -- <command>`: the instance operator's commands (apps/server/src/admin/cli.ts) on this
// instance's database, read from the same environment as `npm start` (DATABASE_URL, or the embedded
// database under DATA_DIR — stop the server first: the embedded database is one process's).
import { runAdminCommand, UsageError } from '../apps/server/src/admin/cli';
import { DatabaseError, openDatabase } from '../apps/server/src/db/client';
import { ConfigError, loadConfig } from '../apps/server/src/lib/config';
import { lockDataDir } from '../apps/server/src/lib/data-dir-lock';

async function main(): Promise<number> {
  const config = loadConfig();
  const unlock = config.DATABASE_URL ? undefined : lockDataDir(config.dataDir);
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir });
  try {
    await runAdminCommand(database.db, process.argv.slice(2), (line) => process.stdout.write(`${line}\n`));
    return 0;
  } finally {
    await database.close();
    unlock?.();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const known =
      error instanceof UsageError ||
      error instanceof ConfigError ||
      error instanceof DatabaseError ||
      (error instanceof Error && error.message.startsWith('Another Otklik'));
    const message =
      error instanceof Error ? (known ? error.message : (error.stack ?? error.message)) : String(error);
    process.stderr.write(`${message}\n`);
    process.exit(known ? 2 : 1);
  },
);
