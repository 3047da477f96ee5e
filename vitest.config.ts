import { defineConfig } from 'vitest/config';

/**
 * Four tiers, run in this order by `npm test` (scripts/test.ts), one vitest run each:
 *
 * - `unit`: the `*.test.ts` files beside the code. No global setup and no service: they pass with
 *   every service URL pointing at a closed port. A test that needs Postgres, Redis or OpenSearch
 *   is not a unit test: it goes under test/.
 * - `int`: test/**, the apps over HTTP (or the indexer, the CLI) against real Postgres, Redis and
 *   OpenSearch, each file in its own environment (test/support/isolated-env.ts).
 * - `e2e`: test/e2e, the apps as clients use them (one base URL, the real entry point).
 * - `resilience`: test/resilience, suites that stop, restart or reshape services of their own
 *   (test/support/private-services.ts), never the shared ones: last, one file at a time (each
 *   starts a JVM or more on two cores). Only when asked for by name (`--project resilience`).
 */
const serviceTier = {
  globalSetup: ['test/support/global-setup.ts'],
  setupFiles: ['test/support/file-setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 120_000,
  // `expect.poll` waits for what a browser or a worker does next; vitest's default of 1 s failed
  // CI on a loaded two-core machine (a feed's scroll put back after 1.x s). A poll still fails when
  // the state never comes; waiting longer only tells slow from never.
  expect: { poll: { timeout: 10_000 } },
};

const resilienceAsked = process.argv.some(
  (a, i, all) => a === '--project=resilience' || (a === '--project' && all[i + 1] === 'resilience'),
);

/**
 * Workspace packages that are also built for outside users (clients/ts, `@guest/client`) export
 * their TypeScript sources under the `guest-source` condition: tests run the sources, no build
 * needed. The rest are vitest's own defaults (Vite's server conditions without `module`).
 */
const CONDITIONS = ['guest-source', 'node', 'development|production'];

export default defineConfig({
  resolve: { conditions: CONDITIONS },
  ssr: { resolve: { conditions: CONDITIONS } },
  test: {
    pool: 'forks',
    // Two cores, shared with Postgres and OpenSearch: more workers only add contention.
    maxWorkers: 2,
    env: { APP_ENV: 'test' },
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['apps/*/src/**/*.test.ts', 'libs/*/src/**/*.test.ts', 'indexer/src/**/*.test.ts'],
          testTimeout: 10_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'int',
          include: ['test/**/*.test.ts'],
          exclude: ['**/node_modules/**', 'test/e2e/**', 'test/resilience/**', 'test/relevance/**'],
          ...serviceTier,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          ...serviceTier,
          sequence: { groupOrder: 2 },
        },
      },
      ...(resilienceAsked
        ? [
            {
              extends: true as const,
              test: {
                name: 'resilience',
                include: ['test/resilience/**/*.test.ts'],
                ...serviceTier,
                testTimeout: 300_000,
                hookTimeout: 300_000,
                maxWorkers: 1,
                fileParallelism: false,
                sequence: { groupOrder: 3 },
              },
            },
          ]
        : []),
    ],
  },
});
