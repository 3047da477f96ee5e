import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from '@guest/config';
import { openApiDocuments } from './documents.ts';

/**
 * Writes the OpenAPI documents clients get (`<name>.json`: write-api, read-api, server) for the
 * linters of `npm run lint:openapi`. `tsx scripts/openapi/dump.ts [dir]` (default `.data/openapi`).
 */
const outDir = path.resolve(process.argv[2] ?? path.join(repoRoot, '.data/openapi'));
await mkdir(outDir, { recursive: true });
for (const [name, doc] of Object.entries(await openApiDocuments())) {
  const file = path.join(outDir, `${name}.json`);
  await writeFile(file, `${JSON.stringify(doc, null, 2)}\n`);
  process.stdout.write(`${path.relative(process.cwd(), file)}\n`);
}
// The apps' background machinery (job queues, pools) can keep the loop alive after close; a
// one-shot command ends when its work is done.
process.exit(0);
