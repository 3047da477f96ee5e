/**
 * `npm run check:i18n [dir]`: checks the interface dictionaries (default `i18n/` at the repository
 * root) and prints each language's coverage. Exits 1 when a file is not valid JSON, holds a value
 * that is not a string, or a non-English file has keys English lacks (or other problems listed by
 * `inspectDictionaries`); the read API refuses to start on the same problems.
 */
import path from 'node:path';
import { repoRoot } from '@guest/config';
import { inspectDictionaries } from '@guest/read-api/i18n';

const dir = path.resolve(process.cwd(), process.argv[2] ?? path.join(repoRoot, 'i18n'));
const { problems, coverage, dictionaries } = inspectDictionaries(dir);

const total = Object.keys(dictionaries.en ?? {}).length;
process.stdout.write(`Dictionaries in ${path.relative(process.cwd(), dir) || '.'}: ${total} keys in en.json\n`);
for (const c of coverage) {
  const gaps = c.missing.length
    ? ` (missing: ${c.missing.slice(0, 8).join(', ')}${c.missing.length > 8 ? ', …' : ''})`
    : '';
  process.stdout.write(`  ${c.lang.padEnd(8)} ${String(c.percent).padStart(5)}%  ${c.translated}/${c.total}${gaps}\n`);
}
if (problems.length) {
  process.stderr.write(`\n${problems.length} problem(s):\n${problems.map((p) => `  - ${p}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write('OK\n');
