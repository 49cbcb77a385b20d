import type { Db } from '../db/client';
import type { Logger } from '../lib/logger';
import { PeriodicTask } from '../lib/periodic';
import { type FeedNetwork, refreshAllFeeds } from '../modules/monitoring/feeds/service';
import type { EventBus } from '../realtime/bus';

/** Every 15 minutes each RSS/Atom source of monitoring is fetched (conditionally) for new entries. */
export const MONITORING_FEEDS_TICK_MS = 900_000;

export class MonitoringFeedsJob {
  private readonly task: PeriodicTask;

  constructor(private readonly deps: { db: Db; bus: EventBus; log: Logger; net: FeedNetwork }) {
    this.task = new PeriodicTask('Monitoring feeds', () => this.tick(), deps.log);
  }

  start(intervalMs = MONITORING_FEEDS_TICK_MS) {
    this.task.start(intervalMs);
  }

  stop() {
    return this.task.stop();
  }

  tick(now = new Date()) {
    return refreshAllFeeds(this.deps, now);
  }
}
