/**
 * The moment the tasks module calls "now" (due dates, expired counts, the due job). It is the system
 * clock plus an offset that only tests move (`TEST_CLOCK=1` enables `POST /v1/test/clock` for e2e;
 * integration tests pass `now` or set the offset directly), so expiry is tested without waiting.
 */
let offsetMs = 0;

export const taskClock = {
  now: (): Date => new Date(Date.now() + offsetMs),
  /** Moves the clock forward by `ms` from the real time (0 puts it back). */
  setOffset(ms: number) {
    offsetMs = ms;
  },
  offset: () => offsetMs,
};
