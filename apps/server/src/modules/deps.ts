import type { Redis } from 'ioredis';
import type { Database } from '../db/client';
import type { Config } from '../lib/config';
import type { Sealer } from '../lib/crypto';
import type { Logger } from '../lib/logger';
import type { RateLimiter } from '../lib/rate-limit';
import type { Mailer } from '../mail/mailer';
import type { MediaNetwork } from '../providers/public-network';
import type { EventBus } from '../realtime/bus';
import type { LockStore } from '../realtime/locks';
import type { WorkinghoursScheduler } from './workinghours/scheduler';

/**
 * What the composition root (app.ts) hands every module: the services built once at start. Declared
 * here, below the root, so a module never imports the root (architecture.test.ts).
 */
export interface AppDeps {
  config: Config;
  database: Database;
  mailer: Mailer;
  limiter: RateLimiter;
  sealer: Sealer;
  log: Logger;
  bus: EventBus;
  locks: LockStore;
  schedule: WorkinghoursScheduler;
  /** Tests only: the network customers' file links are fetched over (providers/public-network.ts). */
  mediaNetwork?: MediaNetwork;
  /** The shared Redis connection when REDIS_URL is set (readiness checks it). */
  redis?: Redis;
}
