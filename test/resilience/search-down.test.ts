import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, stopNode } from '../../scripts/stack/index.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { http } from '../support/http.ts';

/**
 * Stops the real OpenSearch node that the stack script runs, and checks what a client and a
 * monitor see; then starts it again. Runs alone, after every other test (see scripts/test.ts),
 * because every other suite needs the engine.
 */
let t: TestApp;
let stopped = false;

beforeAll(async () => {
  if (process.env.OPENSEARCH_URL) {
    throw new Error(
      'this suite stops the OpenSearch that `npm run stack:up` started; it cannot run against OPENSEARCH_URL',
    );
  }
  t = await startTestApp({ apps: [] });
});

afterAll(async () => {
  if (stopped) await startNode(1, { quiet: true });
  await t?.close();
});

describe('when OpenSearch stops', () => {
  it('/health turns 503 and names the search check, then recovers when it is back', async () => {
    const before = await http(t.url, 'GET', '/health');
    expect(before.status, before.text).toBe(200);

    await stopNode(1, { quiet: true });
    stopped = true;
    const down = await http(t.url, 'GET', '/health');
    expect(down.status).toBe(503);
    expect(down.body.status).toBe('degraded');
    expect(down.body.checks.search.status).toBe('down');
    expect(down.body.checks.search.error).toBeTruthy();
    expect(down.body.checks.database.status).toBe('ok');
    expect(down.body.checks.cache.status).toBe('ok');

    await startNode(1, { quiet: true });
    stopped = false;
    const after = await http(t.url, 'GET', '/health');
    expect(after.status, after.text).toBe(200);
  });
});
