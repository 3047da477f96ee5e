import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['apps/*/src/**/*.test.ts', 'libs/*/src/**/*.test.ts', 'indexer/src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'test/relevance/**', 'test/resilience/**'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/file-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two cores, shared with Postgres and OpenSearch: more workers only add contention.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
