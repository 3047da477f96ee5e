import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { exitUnlessSupportedRuntime } from '@guest/config';
import { elasticsearchRunning, ensureElasticsearch, stopElasticsearch } from './stack/elasticsearch.ts';
import { withLock } from './stack/util.ts';
import { vitestCli } from './vitest-cli.ts';

/**
 * `npm run test:elasticsearch`: the suites that touch the search engine (read API, events,
 * indexer with its chaos test, the relevance guard), run again on a real Elasticsearch 9, then
 * the analyzer comparison of both engines. The OpenSearch run is `npm test`; the stack file is
 * left as it is (the Elasticsearch URL reaches the suites through the environment), and an
 * Elasticsearch this script had to start is stopped at the end.
 */
exitUnlessSupportedRuntime();
const log = (l: string): void => console.log(l);
const startedHere = !elasticsearchRunning();
let url = '';
await withLock(
  'stack',
  async () => {
    url = (await ensureElasticsearch({ log, env: { ...process.env, SEARCH_URL: '' } })).url;
  },
  log,
);

const env = { ...process.env, APP_ENV: 'test', SEARCH_ENGINE: 'elasticsearch', SEARCH_URL: url };
const run = (cmd: string, args: string[], extraEnv: NodeJS.ProcessEnv = {}) =>
  spawnSync(cmd, args, { stdio: 'inherit', env: { ...env, ...extraEnv } }).status ?? 1;

let status = run(process.execPath, [vitestCli(), 'run', '--project', 'int', 'test/read-api', 'test/indexer']);
if (status === 0) {
  status = run(process.execPath, [
    path.join(path.dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/cli.mjs'),
    'scripts/check-analyzers.ts',
    '--elasticsearch',
    url,
  ]);
}
if (startedHere) await stopElasticsearch({ log, env: process.env });
process.exit(status);
