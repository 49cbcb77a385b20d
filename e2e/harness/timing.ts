// What the timing reporter (timing-reporter.ts) needs from the test processes: each server start is appended
// by startApp as one JSON line to the file E2E_SERVER_STARTS_FILE names, labelled with the test file that
// started it (E2E_TEST_FILE, set by worker-env.ts before each file's hooks).

/** The env variable naming the run's list of server starts (set by the timing reporter). */
export const SERVER_STARTS_ENV = 'E2E_SERVER_STARTS_FILE';
/** The env variable naming the test file running in this process. */
export const TEST_FILE_ENV = 'E2E_TEST_FILE';

export interface ServerStart {
  /** The test file (absolute path), or '' outside a test file. */
  file: string;
  /** Spawn to the first healthy GET /healthz, ms. */
  ms: number;
  /** CPU time the server used by then (Linux), ms: steadier than `ms` on a loaded machine. */
  cpuMs?: number;
  /** Started from the bundle (server-bundle.ts), not through tsx. */
  bundled: boolean;
}
