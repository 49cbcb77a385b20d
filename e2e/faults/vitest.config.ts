import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// `npm run faults` (README "Faults and soak"): the real server (started as `npm start` is) killed, its
// database stopped under it, its disk filled. Slow and rough on the machine, so not part of `npm test`;
// one file at a time. PostgreSQL cases run on a private cluster each file starts (e2e/faults/postgres.ts),
// never on a shared server.
export default defineConfig({
  test: {
    root: resolve(dirname(fileURLToPath(import.meta.url)), '../..'),
    include: ['e2e/faults/**/*.faults.ts'],
    environment: 'node',
    globalSetup: ['e2e/faults/global-setup.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 300_000,
    teardownTimeout: 30_000,
    expect: { poll: { timeout: 60_000, interval: 100 } },
  },
});
