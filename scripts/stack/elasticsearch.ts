import { spawn } from 'node:child_process';
import {
  chownSync,
  closeSync,
  copyFileSync,
  existsSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { ensureEsBuild, esDir } from './elasticsearch-build.ts';
import { chooseEsJdk } from './jdk.ts';
import {
  type Ctx,
  ensureDir,
  errorText,
  httpJson,
  indent,
  isOurProcess,
  line,
  listenerNote,
  portOpen,
  readJson,
  readPid,
  repoRoot,
  run,
  searchEngineName,
  since,
  sleep,
  tail,
  terminate,
  which,
  writeJson,
} from './util.ts';

/** Config, data, logs and tmp of the node: owned by the user Elasticsearch runs as. */
const nodeDir = path.join(esDir, 'node');
const stateFile = path.join(esDir, 'state.json');
/** copy of the server's pid (the server writes its own into the node directory) */
const pidFile = path.join(esDir, 'elasticsearch.pid');
/** output of `bin/elasticsearch -d` (start-up until the node is up, then start-up errors) */
export const elasticsearchLogFile = path.join(esDir, 'elasticsearch.log');
const CLUSTER_NAME = 'guest-dev-es';
const NODE_NAME = 'stack-es';

interface EsState {
  pid: number;
  httpPort: number;
  transportPort: number;
  version: string;
  home: string;
  javaHome: string;
  javaVersion: string;
  heap: string;
  runAs: string;
  startedAt: string;
}

interface Health {
  status: string;
  number_of_nodes: number;
  cluster_name: string;
}

const log = (ctx: Ctx, m: string): void => ctx.log(line('elasticsearch', m));
const logRel = (): string => path.relative(repoRoot, elasticsearchLogFile);
/** The server JVM's command line names its home: marks a pid as ours (and not a reused pid). */
const marker = (home: string): string => `-Des.path.home=${home}`;

/**
 * `_cluster/health` (Elasticsearch answers `GET /` only with the rest-root module, which this
 * distribution lacks). `engine` tells Elasticsearch (x-elastic-product header) from anything else.
 */
async function health(url: string, timeoutMs = 3000): Promise<(Health & { elastic: boolean }) | undefined> {
  try {
    const res = await httpJson(`${url}/_cluster/health`, 'GET', undefined, timeoutMs);
    const body = res.body as Partial<Health>;
    if (res.status !== 200 || typeof body.status !== 'string') return undefined;
    return { ...(body as Health), elastic: res.headers['x-elastic-product'] === 'Elasticsearch' };
  } catch {
    return undefined;
  }
}

const healthy = (h: Health | undefined): boolean => h !== undefined && (h.status === 'green' || h.status === 'yellow');

function envInt(ctx: Ctx, name: string, fallback: number): number {
  const raw = ctx.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, not ${raw}`);
  return n;
}

/** Our running node (state file + live JVM whose command line names our home), if any. */
function ours(): EsState | undefined {
  const state = readJson<EsState>(stateFile);
  return state && isOurProcess(state.pid, marker(state.home)) ? state : undefined;
}

/** The last lines of the launcher's output from the latest start on. */
function lastRunLog(lines = 40): string {
  const text = tail(elasticsearchLogFile, 400);
  const start = text.lastIndexOf('\n===== ');
  return (start >= 0 ? text.slice(start + 1) : text).split('\n').slice(-lines).join('\n');
}

async function waitHealthy(url: string, pid: number | undefined, home: string, timeoutMs: number): Promise<Health> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const h = await health(url);
    if (h && healthy(h)) return h;
    if (pid !== undefined && !isOurProcess(pid, marker(home))) {
      throw new Error(`the Elasticsearch JVM (pid ${pid}) exited; last lines of ${logRel()}:\n${indent(lastRunLog())}`);
    }
    if (Date.now() > deadline) {
      throw new Error(
        `Elasticsearch at ${url} was not healthy (yellow/green) within ${Math.round(timeoutMs / 1000)}s ` +
          `(${h ? `status ${h.status}` : 'no answer'}); last lines of ${logRel()}:\n${indent(lastRunLog())}`,
      );
    }
    await sleep(500);
  }
}

/**
 * Elasticsearch in this order: SEARCH_URL; the node this script started before (restarted when
 * another port is asked for); an Elasticsearch already answering on the port; a new node from the
 * Maven Central distribution (unpacked under .data/elasticsearch, with the project's analysis
 * plugin), run as an unprivileged user when started as root.
 */
export async function ensureElasticsearch(ctx: Ctx): Promise<{ url: string; urls: string[] }> {
  const t0 = Date.now();
  const timeoutMs = envInt(ctx, 'ES_START_TIMEOUT', 300) * 1000;

  const fromEnv = ctx.env.SEARCH_URL;
  if (fromEnv) {
    const url = fromEnv.replace(/\/+$/, '');
    const h = await waitHealthy(url, undefined, '', 30_000).catch((err: unknown) => {
      throw new Error(`SEARCH_URL=${fromEnv} is not healthy: ${errorText(err).split('\n')[0]}`);
    });
    log(ctx, `found SEARCH_URL, ${h.status} (${since(t0)})`);
    return { url, urls: [url] };
  }

  const port = envInt(ctx, 'ES_HTTP_PORT', 9250);
  const transportPort = envInt(ctx, 'ES_TRANSPORT_PORT', port + 100);
  const url = `http://127.0.0.1:${port}`;

  const running = ours();
  if (running) {
    if (running.httpPort === port && running.transportPort === transportPort) {
      const h = await waitHealthy(url, running.pid, running.home, timeoutMs);
      log(ctx, `found node started by stack (pid ${running.pid}, ${running.version}), ${h.status} (${since(t0)})`);
      return { url, urls: [url] };
    }
    for (const p of [port, transportPort]) {
      if (p !== running.httpPort && p !== running.transportPort && (await portOpen(p))) {
        throw new Error(
          `the Elasticsearch started by stack listens on ${running.httpPort}, and ${p} (asked for) is in use by ` +
            `another program: nothing was stopped; choose other ES_HTTP_PORT / ES_TRANSPORT_PORT`,
        );
      }
    }
    log(ctx, `running node listens on ${running.httpPort}; restarting on ${port}`);
    await stopElasticsearch(ctx);
  }

  const foreign = await health(url);
  if (foreign) {
    if (!foreign.elastic) {
      throw new Error(
        `${url} answers but is not Elasticsearch (no x-elastic-product header; OpenSearch?): choose another ES_HTTP_PORT`,
      );
    }
    const h = await waitHealthy(url, undefined, '', 60_000);
    log(
      ctx,
      `found ${await searchEngineName(url)} on ${url}, not started by this checkout's stack ` +
        `(cluster ${h.cluster_name}, ${h.status}${listenerNote(port)}): used as it is, never stopped or restarted (${since(t0)})`,
    );
    return { url, urls: [url] };
  }
  for (const p of [port, transportPort]) {
    if (await portOpen(p)) {
      throw new Error(`port ${p} on 127.0.0.1 is in use by another program; set ES_HTTP_PORT (and ES_TRANSPORT_PORT)`);
    }
  }

  const state = await start(ctx, port, transportPort, timeoutMs);
  const h = await waitHealthy(url, state.pid, state.home, timeoutMs).catch(async (err: unknown) => {
    if (isOurProcess(state.pid, marker(state.home))) await terminate(state.pid, 30_000);
    rmSync(pidFile, { force: true });
    throw err;
  });
  log(ctx, `healthy: ${h.status} (${since(t0)}) ${url}${rssNote(state.pid)}`);
  return { url, urls: [url] };
}

/** Resident memory of a process in MiB (Linux), for the log lines. */
function rssMiB(pid: number): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Math.round(Number(kb) / 1024) : undefined;
  } catch {
    return undefined;
  }
}
const rssNote = (pid: number): string => {
  const mb = rssMiB(pid);
  return mb === undefined ? '' : `, RSS ${mb} MiB`;
};

interface RunAs {
  name: string;
  uid: number;
  gid: number;
}

/**
 * Elasticsearch refuses to run as root: when this script runs as root, the node runs as
 * ES_RUN_AS (default `nobody`) through setpriv. Otherwise it runs as the current user.
 */
async function runAs(ctx: Ctx): Promise<RunAs | undefined> {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const name = ctx.env.ES_RUN_AS || 'nobody';
  const id = which('id', ctx.env) ?? 'id';
  const [u, g] = await Promise.all([run(id, ['-u', name]), run(id, ['-g', name])]);
  const uid = Number(u.stdout.trim());
  const gid = Number(g.stdout.trim());
  if (u.code !== 0 || g.code !== 0 || !Number.isInteger(uid) || !Number.isInteger(gid)) {
    throw new Error(`ES_RUN_AS=${name}: no such user (Elasticsearch does not run as root)`);
  }
  if (uid === 0) throw new Error('ES_RUN_AS must not be root: Elasticsearch refuses to run as root');
  return { name, uid, gid };
}

/** chown -R, without following links. */
function chownTree(p: string, uid: number, gid: number): void {
  chownSync(p, uid, gid);
  if (!lstatSync(p).isDirectory()) return;
  for (const e of readdirSync(p)) {
    const child = path.join(p, e);
    if (lstatSync(child).isSymbolicLink()) continue;
    chownTree(child, uid, gid);
  }
}

/** Node directory: config (copied from the distribution once), data, logs, tmp. */
function prepareNode(home: string, port: number, transportPort: number, heap: string, user: RunAs | undefined): string {
  const conf = path.join(nodeDir, 'config');
  const data = ensureDir(path.join(nodeDir, 'data'));
  const logs = ensureDir(path.join(nodeDir, 'logs'));
  ensureDir(path.join(nodeDir, 'tmp'));
  if (!existsSync(path.join(conf, 'jvm.options'))) {
    const copy = (from: string, to: string): void => {
      ensureDir(to);
      for (const e of readdirSync(from, { withFileTypes: true })) {
        if (e.isDirectory()) copy(path.join(from, e.name), path.join(to, e.name));
        else copyFileSync(path.join(from, e.name), path.join(to, e.name));
      }
    };
    copy(path.join(home, 'config'), conf);
  }
  writeFileSync(
    path.join(conf, 'elasticsearch.yml'),
    [
      '# Written by scripts/stack (elasticsearch.ts) at every start: edits here are lost.',
      `cluster.name: ${CLUSTER_NAME}`,
      `node.name: ${NODE_NAME}`,
      `path.data: ${data}`,
      `path.logs: ${logs}`,
      'network.host: 127.0.0.1',
      `http.port: ${port}`,
      `transport.port: ${transportPort}`,
      'discovery.type: single-node',
      'xpack.security.enabled: false',
      'cluster.routing.allocation.disk.threshold_enabled: false',
      // as OpenSearch: wildcard deletes of test indices
      'action.destructive_requires_name: false',
      '',
    ].join('\n'),
  );
  ensureDir(path.join(conf, 'jvm.options.d'));
  writeFileSync(
    path.join(conf, 'jvm.options.d', 'stack.options'),
    ['# Written by scripts/stack (ES_HEAP)', `-Xms${heap}`, `-Xmx${heap}`, '-XX:-AlwaysPreTouch', ''].join('\n'),
  );
  if (user) {
    const st = statSync(nodeDir);
    if (st.uid !== user.uid || st.gid !== user.gid) chownTree(nodeDir, user.uid, user.gid);
    else
      for (const p of [conf, path.join(conf, 'elasticsearch.yml'), path.join(conf, 'jvm.options.d', 'stack.options')]) {
        chownSync(p, user.uid, user.gid);
      }
  }
  return conf;
}

async function start(ctx: Ctx, port: number, transportPort: number, timeoutMs: number): Promise<EsState> {
  const jdk = chooseEsJdk(ctx.env);
  const build = await ensureEsBuild(ctx, jdk);
  const user = await runAs(ctx);
  const heap = ctx.env.ES_HEAP || '1g';
  if (!/^\d+[kKmMgG]?$/.test(heap)) throw new Error(`ES_HEAP must look like 1g or 512m, not ${heap}`);
  ensureDir(esDir);
  const conf = prepareNode(build.home, port, transportPort, heap, user);
  const serverPid = path.join(nodeDir, 'es.pid');
  rmSync(serverPid, { force: true });

  const launcher = path.join(build.home, 'bin', 'elasticsearch');
  const setpriv = user ? which('setpriv', ctx.env) : undefined;
  if (user && !setpriv) throw new Error('setpriv (util-linux) is needed to run Elasticsearch as a non-root user');
  const argv = user
    ? [setpriv!, `--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups', '--', launcher, '-d', '-p', serverPid]
    : [launcher, '-d', '-p', serverPid];
  if (user) {
    // the distribution under .data must be readable by that user (not so under a private home)
    const probe = await run(setpriv!, [
      `--reuid=${user.uid}`,
      `--regid=${user.gid}`,
      '--clear-groups',
      '--',
      'test',
      '-x',
      launcher,
    ]);
    if (probe.code !== 0) {
      throw new Error(
        `user ${user.name} cannot run ${launcher}: every directory above it must be readable and searchable ` +
          `by that user (or set ES_RUN_AS, or SEARCH_URL)`,
      );
    }
  }

  log(
    ctx,
    `starting Elasticsearch ${build.version} (http ${port}, transport ${transportPort}, heap ${heap}` +
      `${user ? `, as ${user.name}` : ''}) on JDK ${jdk.version} ${jdk.home}`,
  );
  if (existsSync(elasticsearchLogFile) && statSync(elasticsearchLogFile).size > 20 * 1024 * 1024) {
    renameSync(elasticsearchLogFile, `${elasticsearchLogFile}.1`);
  }
  const out = openSync(elasticsearchLogFile, 'a');
  writeFileSync(out, `\n===== ${new Date().toISOString()} stack: starting Elasticsearch ${build.version} =====\n`);
  const env: NodeJS.ProcessEnv = {
    PATH: ctx.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: nodeDir,
    LANG: 'C.UTF-8',
    ES_JAVA_HOME: jdk.home,
    ES_PATH_CONF: conf,
    ES_TMPDIR: path.join(nodeDir, 'tmp'),
    ...(ctx.env.ES_JAVA_OPTS ? { ES_JAVA_OPTS: ctx.env.ES_JAVA_OPTS } : {}),
    ...(ctx.env.TZ ? { TZ: ctx.env.TZ } : {}),
  };
  // `-d`: the launcher returns once the node has started (or failed); the server keeps running
  const t0 = Date.now();
  const child = spawn(argv[0]!, argv.slice(1), {
    cwd: path.join(nodeDir, 'logs'), // gc.log and JVM crash files land here
    detached: true,
    stdio: ['ignore', out, out],
    env,
  });
  closeSync(out);
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => resolve(-1), timeoutMs);
    child.once('error', () => resolve(-2));
    child.once('exit', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  const pid = readPid(serverPid);
  if (code !== 0 || pid === undefined) {
    if (pid !== undefined && isOurProcess(pid, marker(build.home))) await terminate(pid, 30_000);
    if (code === -1 && child.pid) await terminate(child.pid, 5_000);
    const why = code === -1 ? `did not return within ${Math.round(timeoutMs / 1000)}s` : `exited with ${code}`;
    throw new Error(`bin/elasticsearch -d ${why}; last lines of ${logRel()}:\n${indent(lastRunLog())}`);
  }
  writeFileSync(pidFile, `${pid}\n`);
  log(
    ctx,
    `node up (pid ${pid}) after ${since(t0)}; log ${logRel()}, node logs ${path.relative(repoRoot, nodeDir)}/logs`,
  );
  const state: EsState = {
    pid,
    httpPort: port,
    transportPort,
    version: build.version,
    home: build.home,
    javaHome: jdk.home,
    javaVersion: jdk.version,
    heap,
    runAs: user?.name ?? String(process.getuid?.() ?? ''),
    startedAt: new Date().toISOString(),
  };
  writeJson(stateFile, state);
  return state;
}

/** Stops the node this script started (state file); anything else on the port is left alone. */
export async function stopElasticsearch(ctx: Ctx): Promise<void> {
  const state = ours();
  if (!state) {
    log(ctx, 'nothing to stop (no Elasticsearch started by stack is running)');
    rmSync(pidFile, { force: true });
    return;
  }
  const t0 = Date.now();
  const gone = await terminate(state.pid, 60_000);
  if (!gone) throw new Error(`Elasticsearch JVM pid ${state.pid} did not stop`);
  rmSync(pidFile, { force: true });
  log(ctx, `stopped JVM pid ${state.pid} (${since(t0)})`);
}

/** True when this script's Elasticsearch runs (for `down` and `status` whatever SEARCH_ENGINE says). */
export function elasticsearchRunning(): boolean {
  return ours() !== undefined;
}

export async function elasticsearchStatus(ctx: Ctx, current: string | undefined): Promise<string> {
  const state = ours();
  const url =
    ctx.env.SEARCH_URL?.replace(/\/+$/, '') ??
    current ??
    (state ? `http://127.0.0.1:${state.httpPort}` : `http://127.0.0.1:${ctx.env.ES_HTTP_PORT ?? 9250}`);
  const h = await health(url);
  const answer = h
    ? `answers: ${h.status}, ${h.number_of_nodes} node(s)${h.elastic ? '' : ' (NOT Elasticsearch)'}`
    : 'DOWN';
  let owner = ctx.env.SEARCH_URL ? 'SEARCH_URL' : 'not started by stack';
  if (state && !ctx.env.SEARCH_URL) {
    owner =
      `started by stack: pid ${state.pid}, Elasticsearch ${state.version}, JDK ${state.javaVersion}, heap ${state.heap}` +
      `${rssNote(state.pid)}, user ${state.runAs}, log ${logRel()}`;
  }
  return line('elasticsearch', `${url}  ${answer}  [${owner}]`);
}
