import type { Db } from '../db/client';
import type { Sealer } from '../lib/crypto';
import type { Logger } from '../lib/logger';
import { PeriodicTask } from '../lib/periodic';
import { importAll } from '../modules/youscan/service';
import type { EventBus } from '../realtime/bus';

/** Every 10 minutes each connected YouScan topic imports what was published since its cursor. */
export const YOUSCAN_IMPORT_TICK_MS = 600_000;

export class YouscanImportJob {
  private readonly task: PeriodicTask;

  constructor(
    private readonly deps: { db: Db; bus: EventBus; sealer: Sealer; log: Logger; baseUrl: string },
  ) {
    this.task = new PeriodicTask('YouScan import', () => this.tick(), deps.log);
  }

  start(intervalMs = YOUSCAN_IMPORT_TICK_MS) {
    this.task.start(intervalMs);
  }

  stop() {
    return this.task.stop();
  }

  tick(now = new Date()) {
    return importAll(this.deps.db, this.deps.bus, this.deps.sealer, this.deps.baseUrl, now);
  }
}
