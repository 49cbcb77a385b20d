import type { Logger } from './logger';

/**
 * A background task run every `intervalMs` (and once at start), never twice at the same time: a tick
 * that is still running when the next one is due makes that one skip. Its failures are logged.
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private busy = false;

  constructor(
    private readonly name: string,
    private readonly run: () => Promise<unknown>,
    private readonly log: Logger,
  ) {}

  start(intervalMs: number) {
    this.timer = setInterval(() => this.wake(), intervalMs);
    this.timer.unref();
    this.wake();
  }

  /** Stops the timer and waits for a running tick. */
  async stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Runs a tick now (unless one is running). */
  wake() {
    if (this.busy) return;
    this.busy = true;
    this.running = this.run()
      .catch((error: unknown) => this.log.error({ err: String(error) }, `${this.name} failed`))
      .finally(() => {
        this.busy = false;
      });
  }
}
