/**
 * npm run stack:up [-- --nodes 3]   find or start Postgres, Redis, the search engine; wait until healthy
 *                                   (SEARCH_ENGINE=elasticsearch: Elasticsearch 9 instead of OpenSearch)
 * npm run stack:down                stop what stack:up started (machine services are left alone)
 * npm run stack:status              each component's URL and whether it answers
 * npx tsx scripts/stack/cli.ts stop-node N | start-node N   (OpenSearch started with --nodes 3)
 * npx tsx scripts/stack/cli.ts check       smoke test of the analyzers (ICU plugin, analysis-common)
 */
import { checkOpenSearch } from './check.ts';
import { ensureStack, readStackEnv, searchEngineOf, stackStatus, startNode, stopNode, stopStack } from './index.ts';
import { errorText } from './util.ts';

const usage = `usage: tsx scripts/stack/cli.ts <command>
  up [--nodes N]    find or start Postgres, Redis and the search engine (OpenSearch: N nodes, default 1 or OPENSEARCH_NODES)
  down              stop what "up" started (both engines)
  status            show each component and whether it answers
  stop-node N       stop OpenSearch node N (the others keep running)
  start-node N      start OpenSearch node N again
  check             check the engine's analysis: ICU (Thai, Chinese), thai, cjk, russian, english
environment: SEARCH_ENGINE (opensearch|elasticsearch, default opensearch),
  DATABASE_URL, REDIS_URL, SEARCH_URL or OPENSEARCH_URL (use these instead of starting anything),
  OPENSEARCH_PORT (9200), OPENSEARCH_NODES, OPENSEARCH_HEAP (1g), OPENSEARCH_JAVA_HOME,
  OPENSEARCH_PROFILE (os3|os2), OPENSEARCH_START_TIMEOUT (s),
  ES_HTTP_PORT (9250), ES_TRANSPORT_PORT (http + 100), ES_HEAP (1g), ES_JAVA_HOME, ES_JAVA_OPTS,
  ES_RUN_AS (nobody, when run as root), ES_START_TIMEOUT (s),
  STACK_PG_PORT (54329), STACK_REDIS_PORT (63799)`;

function positiveInt(raw: string | undefined, what: string): number {
  const n = Number(raw);
  if (raw === undefined || !Number.isInteger(n) || n < 1)
    throw new Error(`${what} must be a positive integer\n${usage}`);
  return n;
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'up': {
      let nodes: number | undefined;
      for (let i = 0; i < rest.length; i++) {
        const a = rest[i]!;
        if (a === '--nodes') nodes = positiveInt(rest[++i], '--nodes');
        else if (a.startsWith('--nodes=')) nodes = positiveInt(a.slice('--nodes='.length), '--nodes');
        else throw new Error(`unknown option ${a}\n${usage}`);
      }
      await ensureStack(nodes === undefined ? { record: true } : { nodes, record: true });
      return;
    }
    case 'down':
      await stopStack();
      return;
    case 'status':
      for (const l of await stackStatus()) console.log(l);
      return;
    case 'stop-node':
      await stopNode(positiveInt(rest[0], 'node number'));
      return;
    case 'start-node':
      await startNode(positiveInt(rest[0], 'node number'));
      return;
    case 'check': {
      const file = readStackEnv();
      const engine = searchEngineOf(process.env.SEARCH_ENGINE ? process.env : { SEARCH_ENGINE: file.SEARCH_ENGINE });
      const url =
        engine === 'elasticsearch'
          ? (process.env.SEARCH_URL ??
            (file.SEARCH_ENGINE === 'elasticsearch' ? file.SEARCH_URL : undefined) ??
            `http://127.0.0.1:${process.env.ES_HTTP_PORT ?? 9250}`)
          : (process.env.OPENSEARCH_URL ??
            process.env.SEARCH_URL ??
            file.OPENSEARCH_URL ??
            file.SEARCH_URL ??
            'http://127.0.0.1:9200');
      await checkOpenSearch(url.replace(/\/+$/, ''), (l) => console.log(l));
      console.log(`[stack] check      ${engine} analysis OK at ${url}`);
      return;
    }
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      console.log(usage);
      return;
    default:
      throw new Error(`unknown command ${command}\n${usage}`);
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`[stack] ERROR: ${errorText(err)}`);
    process.exit(1);
  },
);
