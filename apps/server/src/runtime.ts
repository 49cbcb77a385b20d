import { Redis } from 'ioredis';
import type { Config } from './config';
import { type Database, openDatabase } from './db/client';
import { type App, type AppDeps, buildApp } from './http/app';
import { DelayedReturns } from './jobs/delayed';
import { OutboxPruner } from './jobs/outbox-prune';
import { OutboxWorker } from './jobs/outbox-worker';
import { PollingManager } from './jobs/pollers';
import { Sealer } from './lib/crypto';
import { lockDataDir } from './lib/data-dir-lock';
import { createLogger } from './lib/logger';
import { MemoryRateLimiter, RedisRateLimiter } from './lib/rate-limit';
import { resolveSecretKey } from './lib/secret';
import { Mailer } from './mail/mailer';
import { WorkinghoursScheduler } from './modules/workinghours/scheduler';
import { markUnreadableCredentials } from './providers/context';
import { MemoryBus, RedisBus } from './realtime/bus';
import { MemoryLockStore, RedisLockStore } from './realtime/locks';

export class StartupError extends Error {}

export interface Runtime {
  app: App;
  deps: AppDeps;
  close(): Promise<void>;
}

/** Everything `npm start` runs, wired together; tests build the same thing (optionally on a given db). */
export async function createRuntime(
  config: Config,
  opts: { database?: Database; logStream?: NodeJS.WritableStream; startBackground?: boolean } = {},
): Promise<Runtime> {
  const cleanups: Array<() => Promise<void> | void> = [];
  const log = createLogger(config.LOG_LEVEL, opts.logStream);
  try {
    let database = opts.database;
    if (!database) {
      if (!config.DATABASE_URL) cleanups.push(lockDataDir(config.dataDir));
      database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir });
      const db = database;
      cleanups.push(() => db.close());
    }
    let redis: Redis | undefined;
    if (config.REDIS_URL) {
      redis = await connectRedis(config.REDIS_URL);
      const r = redis;
      cleanups.push(async () => {
        await r.quit().catch(() => r.disconnect());
      });
    }
    const secret = await resolveSecretKey(database.db, config.SECRET_KEY);
    const limiter = redis ? new RedisRateLimiter(redis) : new MemoryRateLimiter();
    const mailer = new Mailer(database.db, log, { smtpUrl: config.SMTP_URL, from: config.MAIL_FROM });
    cleanups.push(async () => {
      await mailer.flush();
      mailer.close();
    });
    const bus = redis ? new RedisBus(redis) : new MemoryBus();
    cleanups.push(() => bus.close());
    const locks = redis ? new RedisLockStore(redis) : new MemoryLockStore();
    const schedule = new WorkinghoursScheduler(database.db, bus, log);
    cleanups.push(() => schedule.stop());
    const deps: AppDeps = {
      config,
      database,
      mailer,
      limiter,
      sealer: new Sealer(secret.key),
      log,
      bus,
      locks,
      schedule,
    };
    const app = await buildApp(deps);
    const outbox = new OutboxWorker({ db: database.db, bus, sealer: deps.sealer, config, log });
    cleanups.push(() => outbox.stop());
    const pollers = new PollingManager(
      { db: database.db, bus, sealer: deps.sealer, config, log },
      bus.nodeId,
    );
    cleanups.push(() => pollers.stop());
    const delayed = new DelayedReturns({ db: database.db, bus, log });
    cleanups.push(() => delayed.stop());
    const pruner = new OutboxPruner({ db: database.db, log });
    cleanups.push(() => pruner.stop());
    if (opts.startBackground ?? true) {
      await markUnreadableCredentials(database.db, deps.sealer, log).catch((error: unknown) =>
        log.error({ err: String(error) }, 'Could not check stored credentials'),
      );
      schedule.start();
      outbox.start();
      pollers.start();
      delayed.start();
      pruner.start();
    }
    if (secret.generated && !config.isTest) {
      app.log.warn(
        'SECRET_KEY is not set: using a generated key stored in the database. Set SECRET_KEY in production.',
      );
    }
    return {
      app,
      deps,
      close: async () => {
        await app.close();
        for (const cleanup of cleanups.reverse()) await cleanup();
      },
    };
  } catch (error) {
    for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => {});
    throw error;
  }
}

async function connectRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2, connectTimeout: 5_000 });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
    return redis;
  } catch (error) {
    redis.disconnect();
    throw new StartupError(
      `Cannot connect to REDIS_URL: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
