import type { Db } from '../db/client';
import type { Sealer } from '../lib/crypto';
import type { Logger } from '../lib/logger';
import { PeriodicTask } from '../lib/periodic';
import { syncStatuses } from '../modules/hde/service';
import type { EventBus } from '../realtime/bus';

/** Every 5 minutes, tickets whose status is older than that are read back from HelpDeskEddy. */
export const HDE_SYNC_TICK_MS = 300_000;

export class HdeSyncJob {
  private readonly task: PeriodicTask;

  constructor(private readonly deps: { db: Db; sealer: Sealer; log: Logger; bus?: EventBus }) {
    this.task = new PeriodicTask('HelpDeskEddy status sync', () => this.tick(), deps.log);
  }

  start(intervalMs = HDE_SYNC_TICK_MS) {
    this.task.start(intervalMs);
  }

  stop() {
    return this.task.stop();
  }

  tick(now = new Date()) {
    return syncStatuses(this.deps, { now, staleMs: HDE_SYNC_TICK_MS });
  }
}
