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
  },
});
