// Plain Node (no dependencies): installs the npm packages on a fresh clone, so that
// `npm run dev` and `npm test` are each the only command a new developer needs.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const marker = 'node_modules/.package-lock.json';
const stale = !existsSync(marker) || statSync('package-lock.json').mtimeMs > statSync(marker).mtimeMs + 1000;
if (stale) {
  process.stdout.write('installing npm packages (npm ci)…\n');
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
}
