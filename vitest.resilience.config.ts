import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * Suites that restart OpenSearch with another node count (`test/resilience/cluster-*.test.ts`)
 * run after the single-node ones, which expect the stack as `npm test` leaves it.
 */
class SingleNodeFirst extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cluster = (f: TestSpecification) => (/[\\/]cluster-[^\\/]*\.test\.ts$/.test(f.moduleId) ? 1 : 0);
    return Promise.resolve([...files].sort((a, b) => cluster(a) - cluster(b) || a.moduleId.localeCompare(b.moduleId)));
  }
}

/** Suites that stop real services: run alone, after everything else (scripts/test.ts). */
export default defineConfig({
  test: {
    include: ['test/resilience/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/file-setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    sequence: { sequencer: SingleNodeFirst },
  },
});
