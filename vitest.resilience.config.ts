import { defineConfig } from 'vitest/config';

/** Suites that stop real services: run alone, after everything else (scripts/test.ts). */
export default defineConfig({
  test: {
    include: ['test/resilience/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
  },
});
