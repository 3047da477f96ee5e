import { afterAll } from 'vitest';
import { settleIsolatedEnvs } from './isolated-env.ts';

// Runs before each test file of the int, e2e and resilience tiers. Registered first, this hook
// runs last (after the file's own afterAll hooks, which close its apps): it drops the file's
// databases, or keeps them when a test of the file failed.
afterAll(async ({}, file) => {
  await settleIsolatedEnvs(file);
});
