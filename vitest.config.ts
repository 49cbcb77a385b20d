import { defineConfig } from 'vitest/config';

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
    // Files share their worker's modules and database (one per worker, not one per file): three times
    // faster. Tests already never rely on a clean database (unique data, as on CI's shared PostgreSQL);
    // a file that changes process-wide state (fake timers, env) puts it back in its own afterEach/afterAll.
    isolate: false,
    globalSetup: ['apps/server/test/global-setup.ts'],
  },
});
