import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Jdk } from './jdk.ts';
import { type Ctx, dataDir, ensureDir, indent, line, repoRoot, run, since, which } from './util.ts';

const toolsDir = path.join(repoRoot, 'tools', 'elasticsearch-analysis');
const pomFile = path.join(toolsDir, 'pom.xml');
const srcDir = path.join(toolsDir, 'src');
export const esDir = path.join(dataDir, 'elasticsearch');
/** the project's analysis plugin, as installed under <home>/plugins/ */
export const PLUGIN_NAME = 'guest-analysis';
const PLUGIN_CLASS = 'guest.analysis.GuestAnalysisPlugin';
const DIST_GROUP = 'org.elasticsearch.distribution.integ-test-zip';

const sha = (...parts: string[]): string => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p).update('\0');
  return h.digest('hex');
};

const log = (ctx: Ctx, m: string): void => ctx.log(line('elasticsearch', m));

/** Elasticsearch version pinned in tools/elasticsearch-analysis/pom.xml (`es.version`). */
export function esVersion(): string {
  const v = /<es\.version>([^<]+)<\/es\.version>/.exec(readFileSync(pomFile, 'utf8'))?.[1];
  if (!v) throw new Error(`no <es.version> in ${pomFile}`);
  return v;
}

const cleanMavenOutput = (text: string): string =>
  text
    .replace(/\x1b\[[0-9;]*m/g, '')
    .trim()
    .split('\n')
    .slice(-25)
    .join('\n');

/**
 * The files Maven resolved for the pom: the distribution zip and the plugin's jars (paths in the
 * local Maven repository). Cached in .data/elasticsearch/artifacts.txt, keyed by the pom's content:
 * later calls only check that the files still exist (no Maven, no network). Maven runs offline
 * first, so a machine whose ~/.m2 already holds them never downloads.
 */
async function artifacts(ctx: Ctx): Promise<{ files: string[]; key: string }> {
  ensureDir(esDir);
  const listFile = path.join(esDir, 'artifacts.txt');
  const keyFile = path.join(esDir, 'artifacts.key');
  const key = sha(readFileSync(pomFile, 'utf8'));
  const split = (text: string): string[] => text.trim().split(path.delimiter).filter(Boolean);
  if (existsSync(listFile) && existsSync(keyFile) && readFileSync(keyFile, 'utf8').trim() === key) {
    const files = split(readFileSync(listFile, 'utf8'));
    if (files.length > 0 && files.every((f) => existsSync(f))) return { files, key };
  }
  const mvn = which('mvn', ctx.env);
  if (!mvn) {
    throw new Error(
      'Maven (mvn) is needed once to fetch Elasticsearch: apt-get install maven, or set SEARCH_URL to a running Elasticsearch',
    );
  }
  const t0 = Date.now();
  const tmp = `${listFile}.${process.pid}.tmp`;
  const args = ['-B', '-q', '-f', pomFile, 'dependency:build-classpath', `-Dmdep.outputFile=${tmp}`];
  let r = await run(mvn, ['-o', ...args], { cwd: toolsDir });
  if (r.code !== 0) {
    log(
      ctx,
      `fetching the Elasticsearch ${esVersion()} distribution (~130 MB) and Lucene ICU/smartcn with Maven (first run only)`,
    );
    r = await run(mvn, args, { cwd: toolsDir });
  }
  if (r.code !== 0 || !existsSync(tmp)) {
    rmSync(tmp, { force: true });
    throw new Error(
      `Maven could not resolve tools/elasticsearch-analysis/pom.xml (exit ${r.code}):\n${indent(cleanMavenOutput(r.stdout + r.stderr))}`,
    );
  }
  renameSync(tmp, listFile);
  writeFileSync(keyFile, key + '\n');
  log(ctx, `artifacts resolved (${since(t0)}); list in ${path.relative(repoRoot, listFile)}`);
  return { files: split(readFileSync(listFile, 'utf8')), key };
}

/** Unpacks the distribution zip once into .data/elasticsearch/elasticsearch-<version>/ (kept). */
async function unpack(ctx: Ctx, jdk: Jdk, zip: string, version: string): Promise<string> {
  const home = path.join(esDir, `elasticsearch-${version}`);
  const marker = path.join(home, '.stack-unpacked');
  const key = sha(zip, String(statSync(zip).size));
  if (existsSync(marker) && readFileSync(marker, 'utf8').trim() === key) return home;
  const t0 = Date.now();
  const tmp = path.join(esDir, `.unpack-${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  ensureDir(tmp);
  const unzip = which('unzip', ctx.env);
  let r;
  if (unzip) {
    r = await run(unzip, ['-q', '-o', zip, '-d', tmp]);
  } else {
    // the JDK's jar tool extracts zips too, but drops the executable bits (put back below)
    r = await run(path.join(jdk.home, 'bin', 'jar'), ['xf', zip], { cwd: tmp });
  }
  if (r.code !== 0) {
    rmSync(tmp, { recursive: true, force: true });
    throw new Error(`could not unpack ${zip}:\n${indent((r.stderr || r.stdout).trim())}`);
  }
  const inner = path.join(tmp, `elasticsearch-${version}`);
  if (!existsSync(path.join(inner, 'bin', 'elasticsearch'))) {
    rmSync(tmp, { recursive: true, force: true });
    throw new Error(`${zip} does not hold elasticsearch-${version}/bin/elasticsearch`);
  }
  for (const f of readdirSync(path.join(inner, 'bin'))) chmodSync(path.join(inner, 'bin', f), 0o755);
  rmSync(home, { recursive: true, force: true });
  renameSync(inner, home);
  rmSync(tmp, { recursive: true, force: true });
  writeFileSync(marker, key + '\n');
  log(ctx, `unpacked ${path.basename(zip)} into ${path.relative(repoRoot, home)} (${since(t0)})`);
  return home;
}

function javaSources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...javaSources(p));
    else if (entry.name.endsWith('.java')) out.push(p);
  }
  return out.sort();
}

/**
 * Compiles tools/elasticsearch-analysis/src against the distribution's jars plus the Lucene
 * ICU/smartcn jars and installs it as <home>/plugins/guest-analysis (descriptor, jar, the
 * dependency jars). Cached by the sources, the pom and the JDK: a later start does nothing.
 */
async function plugin(
  ctx: Ctx,
  jdk: Jdk,
  home: string,
  version: string,
  jars: string[],
  pomKey: string,
): Promise<void> {
  const sources = javaSources(srcDir);
  const target = path.join(home, 'plugins', PLUGIN_NAME);
  const keyFile = path.join(target, '.stack-key');
  const key = sha(pomKey, jdk.home, jdk.version, version, ...sources.map((f) => f + readFileSync(f, 'utf8')));
  if (existsSync(keyFile) && readFileSync(keyFile, 'utf8').trim() === key) return;

  const t0 = Date.now();
  const classes = path.join(esDir, 'plugin-classes');
  rmSync(classes, { recursive: true, force: true });
  ensureDir(classes);
  const cp = [path.join(home, 'lib', '*'), ...jars].join(path.delimiter);
  const javac = path.join(jdk.home, 'bin', 'javac');
  const c = await run(javac, [
    '--release',
    '21',
    '-nowarn',
    '-encoding',
    'UTF-8',
    '-d',
    classes,
    '-cp',
    cp,
    ...sources,
  ]);
  if (c.code !== 0)
    throw new Error(`javac failed for ${path.relative(repoRoot, srcDir)}:\n${indent((c.stderr || c.stdout).trim())}`);

  const staging = path.join(esDir, `.plugin-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  ensureDir(staging);
  const j = await run(path.join(jdk.home, 'bin', 'jar'), [
    'cf',
    path.join(staging, `${PLUGIN_NAME}.jar`),
    '-C',
    classes,
    '.',
  ]);
  if (j.code !== 0) throw new Error(`jar failed:\n${indent((j.stderr || j.stdout).trim())}`);
  for (const jar of jars) writeFileSync(path.join(staging, path.basename(jar)), readFileSync(jar));
  writeFileSync(
    path.join(staging, 'plugin-descriptor.properties'),
    [
      '# Written by scripts/stack (elasticsearch-build.ts) from tools/elasticsearch-analysis',
      'description=Analysis components of the guest API (analysis-common, ICU and smartcn subset) built from Lucene classes',
      'version=1',
      `name=${PLUGIN_NAME}`,
      `classname=${PLUGIN_CLASS}`,
      'java.version=21',
      `elasticsearch.version=${version}`,
      '',
    ].join('\n'),
  );
  writeFileSync(path.join(staging, '.stack-key'), key + '\n');
  rmSync(target, { recursive: true, force: true });
  renameSync(staging, target);
  rmSync(classes, { recursive: true, force: true });
  log(ctx, `built and installed the analysis plugin ${PLUGIN_NAME} (${since(t0)})`);
}

export interface EsBuild {
  /** ES_HOME: the unpacked distribution with the plugin installed */
  home: string;
  version: string;
}

/** Distribution unpacked and plugin installed; Maven and javac only when something changed. */
export async function ensureEsBuild(ctx: Ctx, jdk: Jdk): Promise<EsBuild> {
  const version = esVersion();
  const { files, key } = await artifacts(ctx);
  const zipName = `elasticsearch-${version}.zip`;
  const zip = files.find((f) => path.basename(f) === zipName && f.includes(DIST_GROUP.replace(/\./g, path.sep)));
  if (!zip) throw new Error(`Maven's list has no ${DIST_GROUP}:elasticsearch:${version}:zip (see ${pomFile})`);
  const jars = files.filter((f) => f.endsWith('.jar'));
  const home = await unpack(ctx, jdk, zip, version);
  await plugin(ctx, jdk, home, version, jars, key);
  return { home, version };
}
