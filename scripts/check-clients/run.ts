import { spawn } from 'node:child_process';
import { cp, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { loadConfig, repoRoot, type Config } from '@guest/config';
import { ensureDatabaseExists, runMigrations } from '@guest/db';
import { createRuntime } from '@guest/runtime';
import { createLogger, loadDemoCatalog } from '@guest/indexer';
import { runAll } from '@guest/server/run-all';
import { prismSession } from './prism-session.ts';

/**
 * `npm run check:clients`: clients no one here wrote, against the live server (issue 34).
 *
 * 1. Starts the server on a port of its own, with a database, Redis prefix and index prefix of
 *    its own, the demo catalog loaded, and registrations that demand a captcha from the second on.
 * 2. Generates, from its live `/v1/openapi.json`, a Java `native` client and a `typescript-fetch`
 *    client with OpenAPI Generator (the Maven Central jar, fetched once into .data/tools); builds
 *    the Java one with Maven (compile and Javadoc) and type-checks the TypeScript one.
 * 3. Runs the demo programs of clients/contract-check (ours, written against the generated API)
 *    against the server, and a scripted session through `prism proxy`, counting Prism's request
 *    and response violations.
 * Prints each result and exits 1 when any failed. Everything it made is removed at the end.
 */
const GENERATOR_VERSION = '7.25.0';
const work = path.join(repoRoot, '.data/contract');
const tools = path.join(repoRoot, '.data/tools');
const jar = path.join(tools, `openapi-generator-cli-${GENERATOR_VERSION}.jar`);
const results: Array<{ what: string; ok: boolean; seconds: number; note?: string }> = [];
const log = (msg: string) => process.stdout.write(`[check:clients] ${msg}\n`);

function run(
  cmd: string,
  args: string[],
  opts: { cwd?: string; quiet?: boolean } = {},
): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: opts.cwd ?? repoRoot, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const take = (b: Buffer) => {
      out += b.toString();
      if (!opts.quiet) process.stdout.write(b);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

async function step(what: string, fn: () => Promise<string | undefined>): Promise<boolean> {
  const t0 = performance.now();
  let ok = true;
  let note: string | undefined;
  try {
    note = await fn();
  } catch (err) {
    ok = false;
    note = (err as Error).message.split('\n').slice(-20).join('\n');
  }
  const seconds = Math.round((performance.now() - t0) / 100) / 10;
  results.push({ what, ok, seconds, ...(note ? { note } : {}) });
  log(`${ok ? 'ok  ' : 'FAIL'} ${what} (${seconds} s)${note ? `: ${note}` : ''}`);
  return ok;
}

async function must(cmd: string, args: string[], opts: { cwd?: string; quiet?: boolean } = {}): Promise<string> {
  const r = await run(cmd, args, opts);
  if (r.code !== 0) throw new Error(`${cmd} ${args.slice(0, 3).join(' ')} exited ${r.code}\n${r.out.slice(-4000)}`);
  return r.out;
}

/** The server, isolated as a test's: its own database, Redis prefix, index prefix and directories. */
async function startServer(): Promise<{ url: string; config: Config; close: () => Promise<void> }> {
  const id = `contract_${process.pid}`;
  const base = loadConfig({ ...process.env, APP_ENV: 'test' });
  const dbUrl = new URL(base.DATABASE_URL);
  dbUrl.pathname = `/guest_${id}`;
  const dir = path.join(work, 'server');
  const config = loadConfig(
    { ...process.env, APP_ENV: 'test' },
    {
      LOG_LEVEL: 'silent',
      DATABASE_URL: dbUrl.toString(),
      REDIS_KEY_PREFIX: `${id}:`,
      INDEX_PREFIX: id.replace(/_/g, '-'),
      STORAGE_DIR: path.join(dir, 'files'),
      MAILBOX_DIR: path.join(dir, 'mailbox'),
      DEMO_PHOTOS_DIR: path.join(dir, 'demo-photos'),
      PORT: 0,
      REALTIME_PORT: 0,
      SEARCH_CACHE_TTL_MS: 0,
      // The second registration from one address is asked for a captcha: the demos answer it.
      CAPTCHA_AFTER_REGISTRATIONS_PER_ADDRESS: 1,
      DEMO_LISTINGS: 300,
      DEMO_EVENTS: 60,
    },
  );
  await ensureDatabaseExists(config.DATABASE_URL);
  await runMigrations(config.DATABASE_URL);
  const rt = createRuntime(config);
  await loadDemoCatalog(rt, { log: createLogger(rt, 'contract'), progress: false });
  const { app } = await runAll(config);
  const address = app.server.address();
  const port = address && typeof address === 'object' ? address.port : config.PORT;
  // The captcha solver: what test/support's solvedCaptcha reads (the offset and the proof-of-work
  // counter the server keeps), standing in for a person and a browser that did the work.
  const solver: Server = createServer((req, res) => {
    const captchaId = (req.url ?? '').split('/').pop() ?? '';
    void rt.redis.get(`captcha:${captchaId}`).then((raw) => {
      if (!raw) return res.writeHead(404).end();
      const { x, counter } = JSON.parse(raw) as { x: number; counter: number };
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ answer: String(x), nonce: String(counter) }));
    });
  });
  await new Promise<void>((r) => solver.listen(0, '127.0.0.1', r));
  const solverPort = (solver.address() as { port: number }).port;
  process.env.CONTRACT_SOLVER_URL = `http://127.0.0.1:${solverPort}`;
  return {
    url: `http://127.0.0.1:${port}`,
    config,
    close: async () => {
      await new Promise((r) => solver.close(r));
      await app.close();
      await fetch(new URL(`/${config.INDEX_PREFIX}-*?ignore_unavailable=true&allow_no_indices=true`, base.SEARCH_URL), {
        method: 'DELETE',
      }).catch(() => {});
      let cursor = '0';
      do {
        const [next, keys] = await rt.redis.scan(cursor, 'MATCH', `${config.REDIS_KEY_PREFIX}*`, 'COUNT', 1000);
        // The runtime's client adds its prefix: strip it from what SCAN returns.
        if (keys.length) await rt.redis.unlink(...keys.map((k) => k.slice(config.REDIS_KEY_PREFIX.length)));
        cursor = next;
      } while (cursor !== '0');
      await rt.close();
      const admin = new pg.Client({ connectionString: base.DATABASE_URL });
      await admin.connect();
      await admin.query(`drop database if exists "guest_${id}" with (force)`);
      await admin.end();
    },
  };
}

async function main(): Promise<number> {
  const t0 = performance.now();
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  await step(`OpenAPI Generator ${GENERATOR_VERSION} (Maven Central jar)`, async () => {
    if (existsSync(jar)) return 'cached';
    await mkdir(tools, { recursive: true });
    await must(
      'mvn',
      [
        '-q',
        '-B',
        'dependency:copy',
        `-Dartifact=org.openapitools:openapi-generator-cli:${GENERATOR_VERSION}`,
        `-DoutputDirectory=${tools}`,
      ],
      { quiet: true },
    );
    return 'fetched';
  });
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  const started = await step('server with the demo catalog', async () => {
    server = await startServer();
    return server.url;
  });
  try {
    if (!started || !server) return 1;
    const url = server.url;
    const doc = path.join(work, 'openapi.json');
    await step('live document', async () => {
      const res = await fetch(`${url}/v1/openapi.json`);
      await writeFile(doc, await res.text());
      return `${res.status}`;
    });
    const gen = (generator: string, out: string, props: string) =>
      must(
        'java',
        [
          '-jar',
          jar,
          'generate',
          '-i',
          doc,
          '-g',
          generator,
          '-o',
          out,
          `--additional-properties=${props}`,
          // The generator's own test stubs (written for another request style) are not generated:
          // our demo programs are the clients' tests.
          '--global-property=apiTests=false,modelTests=false',
        ],
        { quiet: true },
      );

    // The two clients are built and run side by side (Maven is mostly one thread).
    const javaBranch = async () => {
      const javaClient = path.join(work, 'java-client');
      const javaBuilt = await step('java native client: generate, compile, Javadoc (mvn install)', async () => {
        await gen(
          'java',
          javaClient,
          [
            'library=native',
            'groupId=guest.contract',
            'artifactId=guest-client',
            'artifactVersion=0.0.0-contract',
            'invokerPackage=guest.client',
            'apiPackage=guest.client.api',
            'modelPackage=guest.client.model',
            'useSingleRequestParameter=true',
            'hideGenerationTimestamp=true',
          ].join(','),
        );
        await must('mvn', ['-q', '-B', 'install', '-Dmaven.source.skip=true'], {
          cwd: javaClient,
          quiet: true,
        });
        return `${(await readdir(path.join(javaClient, 'src/main/java/guest/client/model'))).length} model classes`;
      });
      if (javaBuilt)
        await step('java demo: compile and run', async () => {
          const out = await must(
            'mvn',
            [
              '-q',
              '-B',
              'compile',
              'exec:java',
              `-Dexec.args=${url} ${process.env.CONTRACT_SOLVER_URL} java-${process.pid}`,
            ],
            {
              cwd: path.join(repoRoot, 'clients/contract-check/java'),
            },
          );
          if (!/java demo: ok/.test(out)) throw new Error('no "java demo: ok"');
          return undefined;
        });
    };
    const tsBranch = async () => {
      const tsDir = path.join(work, 'ts');
      const tsBuilt = await step(
        'typescript-fetch client: generate and type-check (strict) with the demo',
        async () => {
          await gen('typescript-fetch', path.join(tsDir, 'client'), 'supportsES6=true,npmName=guest-client');
          await cp(path.join(tsDir, 'client/src'), path.join(tsDir, 'generated'), { recursive: true });
          for (const f of ['demo.ts', 'tsconfig.json'])
            await cp(path.join(repoRoot, 'clients/contract-check/ts', f), path.join(tsDir, f));
          await must(path.join(repoRoot, 'node_modules/.bin/tsc'), ['-p', path.join(tsDir, 'tsconfig.json')]);
          return undefined;
        },
      );
      if (tsBuilt)
        await step('ts demo: run', async () => {
          const out = await must(path.join(repoRoot, 'node_modules/.bin/tsx'), [
            path.join(tsDir, 'demo.ts'),
            url,
            process.env.CONTRACT_SOLVER_URL!,
            `ts-${process.pid}`,
          ]);
          if (!/ts demo: ok/.test(out)) throw new Error('no "ts demo: ok"');
          return undefined;
        });
    };
    await Promise.all([javaBranch(), tsBranch()]);

    await step('Prism proxy: scripted session (0 request and 0 response violations)', async () => {
      const r = await prismSession({
        doc,
        upstream: url,
        mailbox: server!.config.MAILBOX_DIR,
        solver: process.env.CONTRACT_SOLVER_URL!,
        work,
      });
      const note =
        `${r.requests} requests, ${r.requestViolations} request violations, ${r.responseViolations} response violations ` +
        `(and ${r.invalidFlagged} of ${r.invalid} deliberately invalid requests flagged by Prism)`;
      if (r.requestViolations || r.responseViolations || r.failures.length || r.invalidFlagged !== r.invalid)
        throw new Error(`${note}\n${[...r.failures, ...r.violations].slice(0, 40).join('\n')}`);
      return note;
    });
  } finally {
    await server?.close().catch((err: unknown) => log(`cleanup: ${(err as Error).message}`));
  }
  log('summary:');
  for (const r of results)
    log(`  ${r.ok ? 'ok  ' : 'FAIL'} ${r.what} (${r.seconds} s)${r.ok && r.note ? `: ${r.note}` : ''}`);
  const failed = results.filter((r) => !r.ok).length;
  log(`took ${Math.round((performance.now() - t0) / 1000)} s`);
  log(`${results.length - failed} passed, ${failed} failed`);
  return failed ? 1 : 0;
}

// The apps' background machinery can keep the loop alive after close: a one-shot command ends here.
process.exit(await main());
