import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { which } from './util.ts';

export interface Jdk {
  home: string;
  major: number;
  version: string;
  vendor: string;
}

/** The two lines of the development OpenSearch (profiles of tools/opensearch/pom.xml). */
export type OpenSearchProfile = 'os3' | 'os2';

function describe(dir: string): Jdk | undefined {
  let home: string;
  try {
    home = realpathSync(dir);
  } catch {
    return undefined;
  }
  // javac too: the launcher class is compiled with the JDK that runs it
  if (!existsSync(path.join(home, 'bin', 'java')) || !existsSync(path.join(home, 'bin', 'javac'))) return undefined;
  let release: string;
  try {
    release = readFileSync(path.join(home, 'release'), 'utf8');
  } catch {
    return undefined;
  }
  const version = /^JAVA_VERSION="([^"]+)"/m.exec(release)?.[1];
  if (!version) return undefined;
  const parts = version.split(/[.+-]/);
  const major = parts[0] === '1' ? Number(parts[1]) : Number(parts[0]);
  if (!Number.isInteger(major)) return undefined;
  const vendor = /^IMPLEMENTOR="([^"]+)"/m.exec(release)?.[1] ?? 'unknown';
  return { home, major, version, vendor };
}

/** JDKs under /usr/lib/jvm, JAVA_HOME and the `java` on PATH (deduplicated by real path). */
export function listJdks(env: NodeJS.ProcessEnv): Jdk[] {
  const dirs: string[] = [];
  if (env.JAVA_HOME) dirs.push(env.JAVA_HOME);
  for (const root of ['/usr/lib/jvm', '/usr/java', '/opt/java']) {
    try {
      for (const name of readdirSync(root)) if (!name.startsWith('.')) dirs.push(path.join(root, name));
    } catch {
      /* no such directory */
    }
  }
  const java = which('java', env);
  if (java) {
    try {
      dirs.push(path.resolve(realpathSync(java), '..', '..'));
    } catch {
      /* dangling link */
    }
  }
  const seen = new Map<string, Jdk>();
  for (const dir of dirs) {
    const jdk = describe(dir);
    if (jdk && !seen.has(jdk.home)) seen.set(jdk.home, jdk);
  }
  return [...seen.values()];
}

export interface JdkChoice {
  jdk: Jdk;
  profile: OpenSearchProfile;
  why: string;
}

/**
 * OpenSearch 3.x (profile os3) on the newest JDK 21+ found; else OpenSearch 2.19.x (os2) on a
 * JDK 17 (or the newest JDK 11+). OPENSEARCH_JAVA_HOME forces a JDK, OPENSEARCH_PROFILE=os2|os3
 * forces a line.
 */
export function chooseJdk(env: NodeJS.ProcessEnv): JdkChoice {
  const forcedProfile = env.OPENSEARCH_PROFILE as OpenSearchProfile | undefined;
  if (forcedProfile && forcedProfile !== 'os2' && forcedProfile !== 'os3') {
    throw new Error(`OPENSEARCH_PROFILE must be os2 or os3, not ${forcedProfile}`);
  }
  if (env.OPENSEARCH_JAVA_HOME) {
    const jdk = describe(env.OPENSEARCH_JAVA_HOME);
    if (!jdk)
      throw new Error(`OPENSEARCH_JAVA_HOME=${env.OPENSEARCH_JAVA_HOME} is not a JDK (bin/java, bin/javac, release)`);
    const profile = forcedProfile ?? (jdk.major >= 21 ? 'os3' : 'os2');
    if (profile === 'os3' && jdk.major < 21)
      throw new Error(`OpenSearch 3.x needs JDK 21+, ${jdk.home} is ${jdk.major}`);
    return { jdk, profile, why: 'OPENSEARCH_JAVA_HOME' };
  }
  const all = listJdks(env).sort((a, b) => b.major - a.major);
  if (forcedProfile !== 'os2') {
    const modern = all.find((j) => j.major >= 21);
    if (modern) return { jdk: modern, profile: 'os3', why: `newest JDK >= 21 found` };
    if (forcedProfile === 'os3')
      throw new Error('OPENSEARCH_PROFILE=os3 needs a JDK 21+, none found under /usr/lib/jvm');
  }
  const legacy = all.find((j) => j.major === 17) ?? all.find((j) => j.major >= 11);
  if (legacy) {
    return {
      jdk: legacy,
      profile: 'os2',
      why: forcedProfile === 'os2' ? 'OPENSEARCH_PROFILE=os2' : 'no JDK >= 21 found',
    };
  }
  throw new Error(
    'no JDK found for OpenSearch (looked in JAVA_HOME, /usr/lib/jvm and PATH): install openjdk-17-jdk-headless ' +
      'or a JDK 21+, or set OPENSEARCH_URL',
  );
}

/**
 * The JDK for Elasticsearch 9 (needs 21+): ES_JAVA_HOME when set, else the newest JDK 21+ found
 * (Temurin 25 under /usr/lib/jvm on these machines).
 */
export function chooseEsJdk(env: NodeJS.ProcessEnv): Jdk {
  if (env.ES_JAVA_HOME) {
    const jdk = describe(env.ES_JAVA_HOME);
    if (!jdk) throw new Error(`ES_JAVA_HOME=${env.ES_JAVA_HOME} is not a JDK (bin/java, bin/javac, release)`);
    if (jdk.major < 21) throw new Error(`Elasticsearch 9 needs JDK 21+, ES_JAVA_HOME=${jdk.home} is ${jdk.major}`);
    return jdk;
  }
  const modern = listJdks(env)
    .filter((j) => j.major >= 21)
    .sort((a, b) => b.major - a.major)[0];
  if (!modern) {
    throw new Error(
      'Elasticsearch 9 needs a JDK 21+ and none was found (JAVA_HOME, /usr/lib/jvm, PATH): install one, set ES_JAVA_HOME, ' +
        'or set SEARCH_URL to a running Elasticsearch',
    );
  }
  return modern;
}
