import { defineConfig } from 'vitest/config';
import { unitWorkers } from './apps/server/test/slot-databases';

// Unit + integration tests (server tests use a real database: PGlite, or PostgreSQL with DATABASE_URL).
// The browser suite has its own config in e2e/.
export default defineConfig({
  test: {
    include: ['packages/**/*.test.ts', 'apps/**/*.test.ts', 'apps/**/*.test.tsx'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two forks or more (slot-databases.ts unitWorkers): on PostgreSQL each gets its own database
    // and Redis prefix (test/worker-env.ts).
    maxWorkers: unitWorkers(),
    // Files share their worker's modules and database (one per worker, not one per file): three times
    // faster. Tests never rely on a clean database (unique data: files of one worker share it);
    // a file that changes process-wide state (fake timers, env) puts it back in its own afterEach/afterAll.
    isolate: false,
    globalSetup: ['apps/server/test/global-setup.ts'],
    setupFiles: ['apps/server/test/worker-env.ts'],
  },
});
