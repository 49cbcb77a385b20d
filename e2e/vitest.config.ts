import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Browser tests: the real server (started per file by startApp) driven by Debian's Chromium.
// One file at a time: each starts a server and a browser, and the machine has 2 cores. Two at once took
// about half as long but made the slower machine's timing flaky (a bulk selection dropped while its
// list re-read itself on PostgreSQL + Redis); see "Tests and CI" in README.
export default defineConfig({
  test: {
    root: resolve(dirname(fileURLToPath(import.meta.url)), '..'),
    include: ['e2e/tests/**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['e2e/harness/global-setup.ts'],
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 120_000,
    // expect.poll waits for something the app does eventually (a re-read, a socket push): Vitest's 1 s
    // default is shorter than one busy moment of a loaded 2-core machine.
    expect: { poll: { timeout: 45_000, interval: 100 } },
    hookTimeout: 180_000,
    teardownTimeout: 30_000,
    // A failed browser test runs once more. One that passes then is flaky, not green: it is listed by
    // e2e/harness/flaky-reporter.ts and under `npm test`'s summary, to be fixed. (Real failures fail twice.)
    retry: 1,
  },
});
