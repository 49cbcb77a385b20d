import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { e2eWorkers } from './harness/workers';

// Browser tests: the real server (started per file by startApp) driven by Debian's Chromium.
// Three files at a time (E2E_WORKERS, harness/workers.ts): each starts its own server and browser, on PostgreSQL with a database,
// Redis key prefix and DATA_DIR of its worker slot (harness/workers.ts); waits are generous for a loaded
// 2-core machine. See "Tests and CI" in README.
export default defineConfig({
  test: {
    root: resolve(dirname(fileURLToPath(import.meta.url)), '..'),
    include: ['e2e/tests/**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['e2e/harness/global-setup.ts'],
    setupFiles: ['e2e/harness/worker-env.ts'],
    // Per-file durations and server start times at the end (timing-reporter.ts); `npm test` adds it too.
    reporters: ['default', './e2e/harness/timing-reporter.ts'],
    pool: 'forks',
    // A worker's files share its modules (the harness, playwright-core): each file used to import them
    // anew, ~2.3 s of a busy core per file. Files keep no state in modules: each starts its own server,
    // browser and SMTP catcher, and worker-env.ts (a setup file, run before every file) points it at its slot.
    isolate: false,
    fileParallelism: true,
    maxWorkers: e2eWorkers(),
    testTimeout: 120_000,
    // expect.poll waits for something the app does eventually (a re-read, a socket push): Vitest's 1 s
    // default is shorter than one busy moment of a loaded 2-core machine.
    expect: { poll: { timeout: 45_000, interval: 100 } },
    // A server start (startApp waits up to 240 s on a loaded machine) fits in a hook.
    hookTimeout: 300_000,
    teardownTimeout: 30_000,
    // A failed browser test runs once more. One that passes then is flaky, not green: it is listed by
    // e2e/harness/flaky-reporter.ts and under `npm test`'s summary, to be fixed. (Real failures fail twice.)
    retry: 1,
  },
});
