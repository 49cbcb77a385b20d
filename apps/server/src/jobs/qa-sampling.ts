import type { Db } from '../db/client';
import { taskClock } from '../lib/clock';
import type { Logger } from '../lib/logger';
import { PeriodicTask } from '../lib/periodic';
import { type SamplingResult, sampleSpace, spacesWithScorecards } from '../modules/qa/sampling';

export const QA_SAMPLING_TICK_MS = 3_600_000;

export interface QaSamplingDeps {
  db: Db;
  log: Logger;
  /** Only these spaces (tests share one database between files running at once); all by default. */
  spaceIds?: number[];
  seed?: string;
}

/**
 * The quality check's sampling (issue 21, modules/qa/sampling.ts): every hour, each space with an active
 * scorecard gets the random share of last week's replies (once) and the replies matching conditions.
 * Re-running changes nothing (unique keys), so several nodes may tick at once.
 */
export class QaSamplingJob {
  private readonly task: PeriodicTask;

  constructor(private readonly deps: QaSamplingDeps) {
    this.task = new PeriodicTask('Quality sampling', () => this.tick(), deps.log);
  }

  start(intervalMs = QA_SAMPLING_TICK_MS) {
    this.task.start(intervalMs);
  }

  stop() {
    return this.task.stop();
  }

  async tick(now = taskClock.now()): Promise<SamplingResult> {
    const total: SamplingResult = { random: 0, condition: 0 };
    for (const spaceId of await spacesWithScorecards(this.deps.db, this.deps.spaceIds)) {
      const got = await sampleSpace(this.deps.db, spaceId, { now, seed: this.deps.seed });
      total.random += got.random;
      total.condition += got.condition;
    }
    return total;
  }
}
