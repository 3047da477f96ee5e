import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { loadConfig } from '@guest/config';

/**
 * A witness that a suite left a search engine as it found it: the same cluster, the same nodes,
 * none of them stopped and started again in between (a node gets a new ephemeral id at every
 * start, even inside the same JVM), and a marker document it wrote there still found.
 *
 * The resilience suites stop, restart and reshape engines of their own; `guardSharedEngine()`
 * makes each of them prove it on the engine the run's stack uses (the one on 127.0.0.1:9200 in
 * CI and on a developer's machine, which other checkouts and people may be using).
 */
export interface EngineWitness {
  url: string;
  /** Resolves with what it found unchanged; rejects naming what changed. */
  verify(): Promise<string>;
  /** Removes the marker index. */
  close(): Promise<void>;
}

interface NodesState {
  cluster_name: string;
  cluster_uuid: string;
  nodes: Record<string, { name: string; ephemeral_id: string }>;
}

interface Answer {
  status: number;
  body: { status?: string; _source?: unknown } | undefined;
}

async function call(url: string, method: string, body?: unknown): Promise<Answer> {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Answer['body']) : undefined };
}

const nodesOf = (s: NodesState) =>
  Object.entries(s.nodes)
    .map(([id, n]) => `${n.name} (${id}, started as ${n.ephemeral_id})`)
    .sort();

/** Records the engine at `url` as it is now and writes a marker document there. */
export async function witnessEngine(url: string): Promise<EngineWitness> {
  const state = async () => {
    const res = await call(`${url}/_cluster/state/nodes`, 'GET');
    if (res.status !== 200) throw new Error(`GET ${url}/_cluster/state/nodes: ${res.status}`);
    return res.body as unknown as NodesState;
  };
  const before = await state();
  const index = `resilience-witness-${process.pid}-${randomBytes(4).toString('hex')}`;
  const marker = { written: new Date().toISOString(), by: process.pid };
  // no replica: green on one node as on many, whatever else the engine holds
  const created = await call(`${url}/${index}`, 'PUT', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
  if (created.status !== 200) throw new Error(`PUT ${url}/${index}: ${created.status} ${JSON.stringify(created.body)}`);
  const put = await call(`${url}/${index}/_doc/marker?refresh=true`, 'PUT', marker);
  if (put.status !== 201) throw new Error(`PUT ${url}/${index}/_doc/marker: ${put.status}`);

  return {
    url,
    async verify() {
      const after = await state().catch((err: unknown) => {
        throw new Error(`the engine at ${url} no longer answers: ${String(err)}`);
      });
      const changes: string[] = [];
      if (after.cluster_uuid !== before.cluster_uuid)
        changes.push(`cluster ${before.cluster_uuid} is now ${after.cluster_uuid}`);
      const [was, is] = [nodesOf(before), nodesOf(after)];
      if (was.join() !== is.join()) changes.push(`nodes were [${was.join(', ')}], are [${is.join(', ')}]`);
      const doc = await call(`${url}/${index}/_doc/marker`, 'GET');
      if (doc.status !== 200 || JSON.stringify(doc.body?._source) !== JSON.stringify(marker))
        changes.push(`marker ${index}/_doc/marker: ${doc.status} ${JSON.stringify(doc.body?._source ?? doc.body)}`);
      const health = await call(`${url}/_cluster/health/${index}`, 'GET');
      if (health.body?.status !== 'green') changes.push(`marker index ${health.body?.status ?? health.status}`);
      if (changes.length) throw new Error(`the engine at ${url} was not left as found: ${changes.join('; ')}`);
      return `cluster ${after.cluster_name} (${after.cluster_uuid}), nodes ${is.join(', ')}, marker document found`;
    },
    async close() {
      await call(`${url}/${index}`, 'DELETE').catch(() => undefined);
    },
  };
}

/**
 * In a resilience suite (call it first, at the top of the file): a witness of the run's shared
 * engine is taken before the suite's own hooks, and checked after all of them (its private
 * engine gone too); the suite fails if the shared engine was stopped, restarted or reshaped.
 */
export function guardSharedEngine(label: string): void {
  const url = loadConfig({ ...process.env, APP_ENV: 'test' }).SEARCH_URL.replace(/\/+$/, '');
  let witness: EngineWitness | undefined;
  beforeAll(async () => {
    witness = await witnessEngine(url);
  });
  // registered before the suite's own afterAll hooks, so run after them (vitest runs them in reverse)
  afterAll(async () => {
    if (!witness) return;
    try {
      const found = await witness.verify();
      console.info(`[${label}] the shared engine at ${url}, not this suite's, was left as found: ${found}`);
    } finally {
      await witness.close();
    }
  });
}
