import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { http } from '../support/http.ts';
import { privateSearchEngine, type PrivateSearchEngine } from '../support/private-services.ts';
import { guardSharedEngine, witnessEngine } from '../support/shared-engine.ts';

/**
 * Stops an OpenSearch node and checks what a client and a monitor see; then starts it again.
 * The node is this suite's own (a one-node cluster in a temporary directory, on free ports,
 * removed at the end): the stack's engine, which every other suite and developer uses, is never
 * stopped, and the suite fails if it was (guardSharedEngine).
 */
guardSharedEngine('search-down');
let engine: PrivateSearchEngine | undefined;
let t: TestApp;

beforeAll(async () => {
  engine = await privateSearchEngine();
  t = await startTestApp({ apps: [], config: engine.config });
});

afterAll(async () => {
  try {
    await t?.close();
  } finally {
    await engine?.close();
  }
});

describe('when OpenSearch stops', () => {
  it('/health turns 503 and names the search check, then recovers when it is back', async () => {
    const before = await http(t.url, 'GET', '/health');
    expect(before.status, before.text).toBe(200);
    // The same witness that guards the shared engine, on this one: it must see the stop and start.
    const witness = await witnessEngine(engine!.url);

    await engine!.stopNode();
    const down = await http(t.url, 'GET', '/health');
    expect(down.status).toBe(503);
    expect(down.body.status).toBe('degraded');
    expect(down.body.checks.search.status).toBe('down');
    expect(down.body.checks.search.error).toBeTruthy();
    expect(down.body.checks.database.status).toBe('ok');
    expect(down.body.checks.cache.status).toBe('ok');

    await engine!.startNode();
    const after = await http(t.url, 'GET', '/health');
    expect(after.status, after.text).toBe(200);
    await expect(witness.verify(), 'a node stopped and started again is told apart').rejects.toThrow(
      /not left as found: nodes were \[node-1 .*\], are \[node-1 /,
    );
  });
});
