import { DatabaseError } from './db/client';
import { ConfigError, loadConfig } from './lib/config';
import { createRuntime, StartupError } from './runtime';

// start: config -> db -> migrations -> app -> listen. Known start-up failures print one line and exit 1.

async function main() {
  const config = loadConfig();
  const runtime = await createRuntime(config);
  const { app } = runtime;
  let closing = false;
  // SIGTERM (an orchestrator, `docker stop`) or SIGINT: drain, then exit 0; a second signal changes
  // nothing. What does not finish within SHUTDOWN_TIMEOUT_S is abandoned with exit code 1.
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    const delayMs = config.SHUTDOWN_DELAY_S * 1000;
    const timeoutMs = config.SHUTDOWN_TIMEOUT_S * 1000;
    app.log.info({ signal, delayMs, timeoutMs }, 'Shutting down');
    setTimeout(() => {
      app.log.error({ timeoutMs }, 'Shutdown did not finish in time; exiting');
      process.exit(1);
    }, delayMs + timeoutMs).unref();
    try {
      await runtime.shutdown({ delayMs });
    } catch (error) {
      app.log.error({ err: error }, 'Shutdown failed');
      process.exit(1);
    }
    app.log.info('Stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const db = config.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `embedded PostgreSQL in ${config.dataDir}`;
  process.stdout.write(`\nOtklik is running on http://localhost:${port} (${db})\n\n`);
}

main().catch((error: unknown) => {
  const known =
    error instanceof ConfigError || error instanceof DatabaseError || error instanceof StartupError;
  const message = error instanceof Error ? error.message : String(error);
  if (known || (error as NodeJS.ErrnoException)?.code === 'EADDRINUSE') {
    process.stderr.write(`Otklik could not start: ${message}\n`);
  } else {
    process.stderr.write(
      `Otklik could not start: ${error instanceof Error ? (error.stack ?? message) : message}\n`,
    );
  }
  process.exit(1);
});
