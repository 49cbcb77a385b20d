import { taskClock } from '../lib/clock';
import type { Logger } from '../lib/logger';
import { PeriodicTask } from '../lib/periodic';
import { type ReportDeps, sendDueReports } from '../modules/stats/reports';

export const STATS_REPORTS_TICK_MS = 60_000;

export interface StatsReportsDeps extends ReportDeps {
  log: Logger;
  /** Only these spaces' reports (tests share one database between files); all by default. */
  spaceIds?: number[];
}

/**
 * Scheduled statistics reports (issue 15, docs/statistics.md "Scheduled reports"): every minute, the
 * reports whose `next_run_at` has come are claimed, moved on to their next run and sent
 * (modules/stats/reports.ts sendDueReports).
 */
export class StatsReportsJob {
  private readonly task: PeriodicTask;

  constructor(private readonly deps: StatsReportsDeps) {
    this.task = new PeriodicTask('Statistics reports', () => this.tick(), deps.log);
  }

  start(intervalMs = STATS_REPORTS_TICK_MS) {
    this.task.start(intervalMs);
  }

  stop() {
    return this.task.stop();
  }

  /** Sends what is due at `now`; the number of reports sent (or recorded as failed). */
  tick(now = taskClock.now()): Promise<number> {
    return sendDueReports(this.deps, now, this.deps.spaceIds);
  }
}
