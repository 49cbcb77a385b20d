import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';
import { type App, buildApp } from './app';
import { type Database, openDatabase } from './db/client';
import { DelayedReturns } from './jobs/delayed';
import { HdeSyncJob } from './jobs/hde-sync';
import { IssuesDueJob } from './jobs/issues-due';
import { MonitoringFeedsJob } from './jobs/monitoring-feeds';
import { NotificationDeliveryJob } from './jobs/notification-delivery';
import { OutboxPruner } from './jobs/outbox-prune';
import { OutboxWorker } from './jobs/outbox-worker';
import { PollingManager } from './jobs/pollers';
import { QaSamplingJob } from './jobs/qa-sampling';
import { RulesNoReplyJob } from './jobs/rules-no-reply';
import { RulesWorker } from './jobs/rules-worker';
import { SpaceExpiryJob } from './jobs/space-expiry';
import { StatsExportsJob } from './jobs/stats-exports';
import { StatsReportsJob } from './jobs/stats-reports';
import { TokenRefreshJob } from './jobs/token-refresh';
import { WebhookWorker } from './jobs/webhook-worker';
import { YouscanImportJob } from './jobs/youscan-import';
import type { Config } from './lib/config';
import { Sealer } from './lib/crypto';
import { lockDataDir } from './lib/data-dir-lock';
import { createLogger } from './lib/logger';
import { MemoryRateLimiter, RedisRateLimiter } from './lib/rate-limit';
import { resolveSecretKey } from './lib/secret';
import { Mailer } from './mail/mailer';
import { AuditRetentionJob } from './modules/audit/retention';
import type { AppDeps } from './modules/deps';
import { slackApi, slackConfigured } from './modules/notifications/slack';
import { TelegramNotifyBot } from './modules/notifications/telegram';
import { WorkinghoursScheduler } from './modules/workinghours/scheduler';
import { markUnreadableCredentials } from './providers/context';
import type { MediaNetwork } from './providers/public-network';
import { telegramApi } from './providers/telegram/client';
import { MemoryBus, RedisBus } from './realtime/bus';
import { MemoryLockStore, RedisLockStore } from './realtime/locks';

export class StartupError extends Error {}

export interface Runtime {
  app: App;
  deps: AppDeps;
  /** Stops at once: no more requests, sockets closed, jobs finish what they hold, connections closed. */
  close(): Promise<void>;
  /**
   * The graceful stop (SIGTERM): /readyz turns 503 at once; after `delayMs` (the load balancer has
   * noticed) close() — the listener stops accepting, sockets are closed with 1001, running requests and
   * the jobs' batches in hand finish, then the bus, Redis and the database are closed.
   */
  shutdown(opts?: { delayMs?: number }): Promise<void>;
}

/** Everything `npm start` runs, wired together; tests build the same thing (optionally on a given db). */
export async function createRuntime(
  config: Config,
  opts: {
    database?: Database;
    logStream?: NodeJS.WritableStream;
    startBackground?: boolean;
    /** Tests only: fixture hosts of customers' file links resolved and routed to an emulator. */
    mediaNetwork?: MediaNetwork;
  } = {},
): Promise<Runtime> {
  const cleanups: Array<() => Promise<void> | void> = [];
  const log = createLogger(config.LOG_LEVEL, opts.logStream);
  try {
    let database = opts.database;
    if (!database) {
      if (!config.DATABASE_URL) cleanups.push(lockDataDir(config.dataDir));
      const seedFile = config.PGLITE_SEED;
      database = await openDatabase({
        url: config.DATABASE_URL,
        dataDir: config.dataDir,
        seed: seedFile ? () => new Blob([readFileSync(seedFile)]) : undefined,
      });
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
    const limiter = redis
      ? new RedisRateLimiter(redis, `${config.REDIS_KEY_PREFIX}rl:`)
      : new MemoryRateLimiter();
    const mailer = new Mailer(database.db, log, { smtpUrl: config.SMTP_URL, from: config.MAIL_FROM });
    cleanups.push(async () => {
      await mailer.flush();
      mailer.close();
    });
    const bus = redis ? new RedisBus(redis, log, `${config.REDIS_KEY_PREFIX}events`) : new MemoryBus();
    cleanups.push(() => bus.close());
    const locks = redis
      ? new RedisLockStore(redis, `${config.REDIS_KEY_PREFIX}lock:`)
      : new MemoryLockStore();
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
      mediaNetwork: opts.mediaNetwork,
      redis,
    };
    const app = await buildApp(deps);
    const outbox = new OutboxWorker({ db: database.db, bus, sealer: deps.sealer, config, log });
    cleanups.push(() => outbox.stop());
    const webhooks = new WebhookWorker({
      db: database.db,
      bus,
      sealer: deps.sealer,
      log,
      allowPrivate: config.WEBHOOKS_ALLOW_PRIVATE === 'true',
      network: opts.mediaNetwork,
    });
    cleanups.push(() => webhooks.stop());
    const pollers = new PollingManager(
      { db: database.db, bus, sealer: deps.sealer, config, log },
      bus.nodeId,
    );
    cleanups.push(() => pollers.stop());
    const delayed = new DelayedReturns({ db: database.db, bus, log });
    cleanups.push(() => delayed.stop());
    const issuesDue = new IssuesDueJob({ db: database.db, bus, log });
    cleanups.push(() => issuesDue.stop());
    const qaSampling = new QaSamplingJob({ db: database.db, log });
    cleanups.push(() => qaSampling.stop());
    const hdeSync = new HdeSyncJob({ db: database.db, sealer: deps.sealer, log, bus });
    cleanups.push(() => hdeSync.stop());
    const tokenRefresh = new TokenRefreshJob({ db: database.db, bus, sealer: deps.sealer, config, log });
    cleanups.push(() => tokenRefresh.stop());
    const youscanImport = new YouscanImportJob({
      db: database.db,
      bus,
      sealer: deps.sealer,
      log,
      baseUrl: config.YOUSCAN_API_URL,
    });
    cleanups.push(() => youscanImport.stop());
    const monitoringFeeds = new MonitoringFeedsJob({
      db: database.db,
      bus,
      log,
      net: { allowPrivate: config.FEEDS_ALLOW_PRIVATE === 'true', network: opts.mediaNetwork },
    });
    cleanups.push(() => monitoringFeeds.stop());
    const ruleDeps = { db: database.db, bus, sealer: deps.sealer, config, locks, log };
    const rulesWorker = new RulesWorker(ruleDeps);
    cleanups.push(() => rulesWorker.stop());
    const rulesNoReply = new RulesNoReplyJob(ruleDeps);
    cleanups.push(() => rulesNoReply.stop());
    const pruner = new OutboxPruner({ db: database.db, log });
    cleanups.push(() => pruner.stop());
    const auditRetention = new AuditRetentionJob({ db: database.db, log });
    cleanups.push(() => auditRetention.stop());
    // Issue 18: the Telegram notification bot, when the instance has one.
    const notifyBotToken = config.NOTIFY_TELEGRAM_BOT_TOKEN;
    const notifyBotApi = notifyBotToken ? telegramApi({ config, fetch }, notifyBotToken) : undefined;
    const notifyBot = notifyBotApi
      ? new TelegramNotifyBot({ db: database.db, log, api: notifyBotApi })
      : undefined;
    if (notifyBot) cleanups.push(() => notifyBot.stop());
    const notificationEmails = new NotificationDeliveryJob({
      db: database.db,
      log,
      mailer,
      sealer: deps.sealer,
      appUrl: config.appUrl,
      telegram: notifyBotApi,
      // Issue 18: the space's Slack channels, when the instance has a Slack app.
      slack: slackConfigured(config) ? slackApi(config) : undefined,
    });
    cleanups.push(() => notificationEmails.stop());
    const expiry = new SpaceExpiryJob({ db: database.db, log, mailer, appUrl: config.appUrl, bus });
    cleanups.push(() => expiry.stop());
    const statsReports = new StatsReportsJob({ db: database.db, log, mailer, appUrl: config.appUrl });
    cleanups.push(() => statsReports.stop());
    const statsExports = new StatsExportsJob({
      db: database.db,
      log,
      mailer,
      bus,
      appUrl: config.appUrl,
      dataDir: config.dataDir,
    });
    cleanups.push(() => statsExports.stop());
    if (opts.startBackground ?? true) {
      await markUnreadableCredentials(database.db, deps.sealer, log).catch((error: unknown) =>
        log.error({ err: String(error) }, 'Could not check stored credentials'),
      );
      schedule.start();
      outbox.start();
      webhooks.start();
      pollers.start();
      delayed.start();
      issuesDue.start();
      qaSampling.start();
      hdeSync.start();
      tokenRefresh.start();
      youscanImport.start();
      monitoringFeeds.start();
      rulesWorker.start();
      rulesNoReply.start();
      pruner.start();
      auditRetention.start();
      expiry.start();
      notificationEmails.start();
      statsReports.start();
      statsExports.start();
      await notifyBot?.start();
    }
    if (secret.generated && !config.isTest) {
      app.log.warn(
        'SECRET_KEY is not set: using a generated key stored in the database. Set SECRET_KEY in production.',
      );
    }
    let closing: Promise<void> | undefined;
    const close = () => {
      closing ??= (async () => {
        app.draining = true;
        await app.close();
        for (const cleanup of cleanups.reverse()) await cleanup();
      })();
      return closing;
    };
    return {
      app,
      deps,
      close,
      shutdown: async ({ delayMs = 0 } = {}) => {
        app.draining = true;
        if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
        await close();
      },
    };
  } catch (error) {
    for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => {});
    throw error;
  }
}

async function connectRedis(url: string): Promise<Redis> {
  // Loaded only here: a single node without REDIS_URL never needs the client (~2% of a start's CPU).
  const { Redis } = await import('ioredis');
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
