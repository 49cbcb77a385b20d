import { EXPORT_EVENT } from '@otklik/shared';
import { taskClock } from '../lib/clock';
import { PeriodicTask } from '../lib/periodic';
import { type ExportDeps, processExports } from '../modules/stats/exports';

export const STATS_EXPORTS_TICK_MS = 5_000;

export interface StatsExportsDeps extends ExportDeps {
  /** Only these spaces' exports (tests share one database between files); all by default. */
  spaceIds?: number[];
}

/**
 * Background exports (issue 15, docs/statistics.md "Exports"): every few seconds — and at once when an
 * export is started on any node (its bus event) — waiting exports are claimed (`FOR UPDATE SKIP LOCKED`)
 * and written one after another; files past their expiry are deleted.
 */
export class StatsExportsJob {
  private readonly task: PeriodicTask;
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly deps: StatsExportsDeps) {
    this.task = new PeriodicTask('Statistics exports', () => this.tick(), deps.log);
  }

  start(intervalMs = STATS_EXPORTS_TICK_MS) {
    this.task.start(intervalMs);
    this.unsubscribe = this.deps.bus.subscribe((event) => {
      const status = (event.payload.export as { status?: string } | undefined)?.status;
      if (event.type === EXPORT_EVENT && status === 'queued') this.task.wake();
    });
  }

  async stop() {
    this.unsubscribe?.();
    await this.task.stop();
  }

  /** Expires and writes what is due; the number of exports written. */
  tick(): Promise<number> {
    return processExports(this.deps, () => taskClock.now(), this.deps.spaceIds);
  }
}
