import { loadConfig } from '@guest/config';
import { createRuntime } from '@guest/runtime';
import { createServer, type AppPlugin } from '@guest/http-kit';
import { writeApi } from '@guest/write-api';
import { readApi } from '@guest/read-api';

/** Each HTTP app alone (each is deployable alone) and the one-base-URL server, which merges them. */
const DOCUMENTS: Record<string, AppPlugin[]> = {
  'write-api': [writeApi],
  'read-api': [readApi],
  server: [writeApi, readApi],
};

/**
 * The OpenAPI documents exactly as clients get them from `GET /v1/openapi.json`. The servers are
 * built but never listen; no request reaches Postgres, Redis or OpenSearch.
 */
export async function openApiDocuments(): Promise<Record<string, Record<string, unknown>>> {
  const runtime = createRuntime(loadConfig());
  const out: Record<string, Record<string, unknown>> = {};
  try {
    for (const [name, apps] of Object.entries(DOCUMENTS)) {
      const app = await createServer({ runtime, apps, logger: false });
      const res = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
      await app.close();
      if (res.statusCode !== 200) throw new Error(`${name}: /v1/openapi.json answered ${res.statusCode}`);
      out[name] = res.json();
    }
  } finally {
    await runtime.close();
  }
  return out;
}
