import type { Logger } from '../lib/logger';
import type { EventBus } from '../realtime/bus';

/** How a queue worker is woken and how its failed runs are logged. */
export interface QueueLoopOptions {
  bus: EventBus;
  log: Logger;
  /** The bus event (from any node) that says rows were queued. */
  wakeOn: string;
  /** The log line of a run that failed. */
  failure: string;
  /** Drain once at start instead of waiting for the first poll or event. */
  wakeAtStart?: boolean;
}

/**
 * The loop the queue workers share (outbox, webhooks, arrival rules): `tick()` claims one batch of due
 * rows — leased with one UPDATE over a `FOR UPDATE SKIP LOCKED` sub-select — and runs it; a run drains
 * batches until none is left. Woken by the queue's bus event and polling as a fallback; a wake during a
 * run makes one more run after it, never two at once. stop() finishes the batch in hand and claims no more.
 */
export abstract class QueueWorkerLoop {
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private busy = false;
  private again = false;
  private stopped = true;
  /** Set by stop(): finish the batch in hand, claim no more. */
  private closing = false;

  constructor(private readonly loop: QueueLoopOptions) {}

  /** Claims one batch of due rows and runs it; the number of rows claimed. */
  abstract tick(): Promise<number>;

  start(intervalMs: number) {
    this.stopped = false;
    this.closing = false;
    this.timer = setInterval(() => this.wake(), intervalMs);
    this.timer.unref();
    this.unsubscribe = this.loop.bus.subscribe((event) => {
      if (event.type === this.loop.wakeOn) this.wake();
    });
    if (this.loop.wakeAtStart) this.wake();
  }

  async stop() {
    this.stopped = true;
    this.closing = true;
    if (this.timer) clearInterval(this.timer);
    this.unsubscribe?.();
    await this.running;
  }

  private wake() {
    if (this.stopped) return;
    if (this.busy) {
      this.again = true;
      return;
    }
    this.busy = true;
    this.running = this.drain()
      .catch((error: unknown) => this.loop.log.error({ err: String(error) }, this.loop.failure))
      .finally(() => {
        this.busy = false;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Runs every row that is due now, until none is left; returns the total tick() counted. */
  async drain(): Promise<number> {
    let total = 0;
    // Bounded: every claimed row either finishes or moves into the future, so this ends anyway.
    for (let round = 0; round < 1_000; round++) {
      const done = await this.tick();
      total += done;
      if (done === 0 || this.closing) break;
    }
    return total;
  }
}
