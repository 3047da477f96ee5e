import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@opensearch-project/opensearch';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aliasName } from '@guest/catalog';
import { importCatalogText, startOutboxWorker, type OutboxWorker } from '@guest/indexer';
import { readApi } from '@guest/read-api';
import { http } from '../support/http.ts';
import { eventually } from '../support/eventually.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { allPages, FIXTURES, loadCatalog, search } from '../read-api/search/support.ts';
import { privateSearchEngine, type PrivateSearchEngine } from '../support/private-services.ts';
import { guardSharedEngine } from '../support/shared-engine.ts';

/**
 * Index replicas on a 3-node cluster (INDEX_REPLICAS=1): a data node stops, and search, counts,
 * /health and the indexer worker go on; it starts again and the cluster is green once more.
 *
 * The cluster is the suite's own: 3 nodes in one JVM, in a temporary directory, on free ports,
 * removed at the end. The stack's engine, which every other suite and developer uses, is never
 * stopped nor reshaped, and the suite fails if it was (guardSharedEngine).
 *
 * The app talks to one node (OPENSEARCH_URL, the first); it stays up, since the client knows no
 * other node. An index template keeps every shard copy of this suite's indices off that node, so
 * each index has its primary on one of the two other nodes and its replica on the other: the node
 * stopped is the one holding the listings primary, whose replica must take over; the copies it
 * held cannot be placed anywhere else, so the cluster stays yellow until it is back.
 */
const NODES = 3;
guardSharedEngine('cluster-node-down');
let own: PrivateSearchEngine | undefined;
let t: TestApp;
let worker: OutboxWorker | undefined;
let prefix: string;
let appNode: string; // name of the node the app talks to
let victim: { name: string; n: number } | undefined;

/** Cluster administration (nodes, shards, templates) is no part of the app's engine surface. */
let admin: Client | undefined;
const engine = () => (admin ??= new Client({ node: t.config.SEARCH_URL }));
const elapsed = (t0: number) => `${((performance.now() - t0) / 1000).toFixed(1)}s`;
const log = (m: string) => console.info(`[cluster-node-down] ${m}`);

interface ShardRow {
  index: string;
  prirep: 'p' | 'r';
  state: string;
  node: string | null;
}

async function shards(): Promise<ShardRow[]> {
  const res = await engine().cat.shards({
    index: `${prefix}-*`,
    format: 'json',
    h: ['index', 'prirep', 'state', 'node'],
  });
  return res.body as unknown as ShardRow[];
}

/** Cluster health of this suite's indices once `status` (or better) is reached; fails after `seconds`. */
async function waitForStatus(status: 'green' | 'yellow', seconds = 120) {
  const timeout = `${seconds}s`;
  const res = await engine().cluster.health(
    { index: `${prefix}-*`, wait_for_status: status, timeout },
    // the engine's client gives up after 10 s and retries: this request may wait longer, once
    { ignore: [408], requestTimeout: (seconds + 10) * 1000, maxRetries: 0 },
  );
  const body = res.body as { status: string; timed_out: boolean; unassigned_shards: number };
  if (body.timed_out) throw new Error(`indices ${prefix}-* not ${status} within ${timeout}: ${JSON.stringify(body)}`);
  return body;
}

const en = { lang: 'en' };
/** What a client sees: the whole feed (price order, every page), a text query, two counts. */
async function snapshot() {
  const feed = await allPages(t, { ...en, sort: 'price_asc', limit: 4 });
  const kata = await search(t, 'listings', { ...en, q: 'Kata' });
  const all = await search(t, 'count', en);
  const kataCount = await search(t, 'count', { ...en, q: 'Kata' });
  for (const r of [kata, all, kataCount]) expect(r.status, r.text).toBe(200);
  return { feed, kata: kata.body.items, count: all.body.count, kataCount: kataCount.body.count };
}

beforeAll(async () => {
  own = await privateSearchEngine({ nodes: NODES });

  t = await startTestApp({ apps: [readApi], config: { ...own.config, INDEX_REPLICAS: 1 } });
  prefix = t.config.INDEX_PREFIX;
  const local = await engine().nodes.info({ node_id: '_local', metric: 'settings' } as never);
  appNode = Object.values((local.body as { nodes: Record<string, { name: string }> }).nodes)[0]!.name;
  await engine().indices.putIndexTemplate({
    name: `${prefix}-keep-off-app-node`,
    body: {
      index_patterns: [`${prefix}-*`],
      template: { settings: { 'index.routing.allocation.exclude._name': appNode } },
    },
  } as never);
  await loadCatalog(t, 'catalog.ndjson');
  await waitForStatus('green');
  worker = await startOutboxWorker(t.runtime, pino({ level: 'silent' }));
});

// The cluster goes whole, its indices and template with it.
afterAll(async () => {
  try {
    await worker?.stop();
    await t?.close();
    await admin?.close();
  } finally {
    await own?.close();
  }
});

describe(`a ${NODES}-node cluster with INDEX_REPLICAS=1 loses a data node`, () => {
  let baseline: Awaited<ReturnType<typeof snapshot>>;

  it('rule: every index is created with INDEX_REPLICAS replicas: a primary and a replica, on two different nodes', async () => {
    const settings = await engine().indices.getSettings({ index: `${prefix}-*`, name: 'index.number_of_replicas' });
    const replicas = Object.values(
      settings.body as Record<string, { settings: { index: { number_of_replicas: string } } }>,
    );
    expect(replicas.map((s) => s.settings.index.number_of_replicas)).toEqual(['1', '1', '1']);
    const rows = await shards();
    expect(rows).toHaveLength(6);
    for (const index of new Set(rows.map((r) => r.index))) {
      const copies = rows.filter((r) => r.index === index);
      expect(copies.map((r) => r.prirep).sort(), index).toEqual(['p', 'r']);
      expect(
        copies.every((r) => r.state === 'STARTED'),
        index,
      ).toBe(true);
      expect(new Set(copies.map((r) => r.node)).size, `${index}: copies on two nodes`).toBe(2);
      expect(
        copies.map((r) => r.node),
        `${index}: none on the app's node`,
      ).not.toContain(appNode);
    }
    baseline = await snapshot();
    expect(baseline.feed).toHaveLength(15);
    expect(baseline.count).toBe(15);
    expect(baseline.kata.length).toBeGreaterThan(0);
  });

  it('rule: with the node holding the listings primary stopped, search and counts answer the same and /health is 200 (yellow is not down)', async () => {
    const listings = (await shards()).find(
      (r) => r.index.startsWith(`${aliasName(prefix, 'listings')}-v`) && r.prirep === 'p',
    );
    const name = listings!.node!;
    const n = Number(/^node-(\d+)$/.exec(name)?.[1]);
    expect(Number.isInteger(n), `node name ${name}`).toBe(true);
    expect(name).not.toBe(appNode);
    victim = { name, n };

    const t0 = performance.now();
    await own!.stopNode(n);
    log(`stopped ${name} (holding the listings primary) in ${elapsed(t0)}`);

    const cluster = await waitForStatus('yellow');
    expect(cluster.status, 'its copies have nowhere else to go: yellow until it is back').toBe('yellow');
    expect(cluster.unassigned_shards).toBe(3);
    const after = await shards();
    const promoted = after.find((r) => r.index === listings!.index && r.prirep === 'p');
    expect(promoted?.state).toBe('STARTED');
    expect(promoted?.node, 'the replica on the other node is now the primary').not.toBe(name);

    // Every answer, several times over (nothing routed to a copy that is gone).
    for (let i = 0; i < 3; i++) expect(await snapshot()).toEqual(baseline);

    const health = await http(t.url, 'GET', '/health');
    expect(health.status, health.text).toBe(200);
    expect(health.body.status).toBe('ok');
    expect(health.body.checks.search.status).toBe('ok');
  });

  it('rule: while the node is down, the indexer worker writes a catalog change and search shows it', async () => {
    const line = (await readFile(path.join(FIXTURES, 'catalog.ndjson'), 'utf8'))
      .split('\n')
      .find((l) => l.includes('"external_id":"S1"'))!;
    const changed = line.replace('"en":"Kata sea-view villa"', '"en":"Kata lighthouse villa"');
    expect(changed).not.toBe(line);
    const t0 = performance.now();
    await importCatalogText(t.runtime.database, `${changed}\n`);

    const res = await eventually(
      'the change to be searchable (count of q=lighthouse 1)',
      async () => {
        const r = await search(t, 'count', { ...en, q: 'lighthouse' });
        return { status: r.status, text: r.text, count: r.body?.count as number | undefined };
      },
      { timeoutMs: 30_000, intervalMs: 250, until: (r) => r.status !== 200 || r.count === 1 },
    );
    expect(res.status, res.text).toBe(200);
    expect(res.count, 'the change is searchable').toBe(1);
    log(`change visible through the API in ${elapsed(t0)} with ${victim!.name} down`);
    const feed = await search(t, 'listings', { ...en, q: 'lighthouse' });
    expect(feed.body.items.map((i: { title: string }) => i.title)).toEqual(['Kata lighthouse villa']);
    expect(worker!.totals.failed + worker!.totals.dead).toBe(0);
    expect((await search(t, 'count', en)).body.count).toBe(15);
  });

  it('rule: the node starts again, its copies catch up (the change included) and the cluster is green', async () => {
    const t0 = performance.now();
    await own!.startNode(victim!.n);
    const cluster = await waitForStatus('green');
    log(`started ${victim!.name} again; indices green in ${elapsed(t0)}`);
    expect(cluster.unassigned_shards).toBe(0);
    const whole = (await engine().cluster.health()).body as { status: string; number_of_nodes: number };
    expect(whole).toMatchObject({ status: 'green', number_of_nodes: NODES });

    const rows = await shards();
    expect(rows.filter((r) => r.state === 'STARTED')).toHaveLength(6);
    expect(rows.filter((r) => r.node === victim!.name).length, 'copies back on the restarted node').toBeGreaterThan(0);
    // The restarted node's own copy of the listings index holds the change made while it was away.
    const onVictim = await engine().search({
      index: aliasName(prefix, 'listings'),
      preference: `_only_nodes:${victim!.name}`,
      body: { query: { match: { 'title.en': 'lighthouse' } } },
    } as never);
    expect((onVictim.body as { hits: { total: { value: number } } }).hits.total.value).toBe(1);

    const health = await http(t.url, 'GET', '/health');
    expect(health.status, health.text).toBe(200);
    expect(health.body.checks.search.status).toBe('ok');
    expect((await search(t, 'count', en)).body.count).toBe(15);
  });
});
