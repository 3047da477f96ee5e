import { runAll } from './run-all.ts';

await runAll();
