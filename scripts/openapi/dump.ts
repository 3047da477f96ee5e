import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig, repoRoot } from '@guest/config';
import { createRuntime } from '@guest/runtime';
import { createServer, type AppPlugin } from '@guest/http-kit';
import { writeApi } from '@guest/write-api';
import { readApi } from '@guest/read-api';

/**
 * Writes the OpenAPI documents exactly as clients get them from `GET /v1/openapi.json`: one per
 * HTTP app (each is deployable alone) and the merged one of the one-base-URL server. The servers
 * are built but never listen; no request reaches Postgres, Redis or OpenSearch.
 *
 * `tsx scripts/openapi/dump.ts [dir]` (default `.data/openapi`).
 */
const outDir = path.resolve(process.argv[2] ?? path.join(repoRoot, '.data/openapi'));
const documents: Record<string, AppPlugin[]> = {
  'write-api': [writeApi],
  'read-api': [readApi],
  server: [writeApi, readApi],
};

const config = loadConfig();
const runtime = createRuntime(config);
await mkdir(outDir, { recursive: true });
try {
  for (const [name, apps] of Object.entries(documents)) {
    const app = await createServer({ runtime, apps, logger: false });
    const res = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
    await app.close();
    if (res.statusCode !== 200) throw new Error(`${name}: /v1/openapi.json answered ${res.statusCode}`);
    const file = path.join(outDir, `${name}.json`);
    await writeFile(file, `${JSON.stringify(res.json(), null, 2)}\n`);
    process.stdout.write(`${path.relative(process.cwd(), file)}\n`);
  }
} finally {
  await runtime.close();
}
