/**
 * `@guest/write-api/demo`: the demo account and demo payments, for `npm run dev`, the seed CLI
 * and tests. Development data only; nothing here runs in the served API.
 */
export { DEMO_ACCOUNT, ensureDemoAccount } from './transactions/demo-account.ts';
export { seedDemoTransactions } from './transactions/seed.ts';
