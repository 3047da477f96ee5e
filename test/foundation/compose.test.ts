import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

/**
 * docker-compose.yml, checked without a Docker engine (CI and this machine have none): the file
 * is parsed as Compose reads it (YAML merge keys resolved) and held to what the project needs
 * (issue 15): an `elasticsearch` profile on the official image of the Elasticsearch version the
 * project tests against, with the analysis plugins whose components the mappings use, and the API
 * and indexer pointed at it with every other setting of the OpenSearch services.
 */
const root = path.join(import.meta.dirname, '..', '..');
const read = (file: string) => readFile(path.join(root, file), 'utf8');

async function compose(): Promise<any> {
  return parse(await read('docker-compose.yml'), { merge: true });
}

/** The analysis component types the index settings name (analyzers, tokenizers, filters). */
async function analysisTypes(): Promise<Set<string>> {
  const settings = JSON.parse(await read('mappings/settings.json'));
  const types = new Set<string>();
  for (const group of Object.values<Record<string, any>>(settings.analysis ?? {})) {
    for (const def of Object.values<any>(group)) {
      for (const name of [def.type, def.tokenizer, ...(def.filter ?? []), ...(def.char_filter ?? [])]) {
        if (typeof name === 'string') types.add(name);
      }
    }
  }
  return types;
}

describe('docker-compose.yml', () => {
  it('has an elasticsearch profile on the official image of the tested version, single node, security off', async () => {
    const es = (await compose()).services.elasticsearch;
    const version = /<es\.version>([^<]+)<\/es\.version>/.exec(await read('tools/elasticsearch-analysis/pom.xml'))![1];
    expect(es.profiles).toEqual(['elasticsearch']);
    const dockerfile: string = es.build.dockerfile_inline;
    expect(dockerfile).toMatch(new RegExp(`^FROM docker\\.elastic\\.co/elasticsearch/elasticsearch:${version}$`, 'm'));
    expect(es.environment).toMatchObject({ 'discovery.type': 'single-node', 'xpack.security.enabled': 'false' });
    expect(es.healthcheck.test.join(' ')).toContain('_cluster/health');
  });

  it('installs the plugins whose components the mappings use (the official image lacks ICU)', async () => {
    const dockerfile: string = (await compose()).services.elasticsearch.build.dockerfile_inline;
    const install = /elasticsearch-plugin install --batch (.+)$/m.exec(dockerfile)?.[1]?.split(/\s+/) ?? [];
    const types = await analysisTypes();
    expect([...types].some((t) => t.startsWith('icu_'))).toBe(true);
    expect(install).toContain('analysis-icu');
    if ([...types].some((t) => t.startsWith('smartcn'))) expect(install).toContain('analysis-smartcn');
  });

  it('runs the API and the indexer on it with the settings of their OpenSearch twins', async () => {
    const { services } = await compose();
    for (const [es, os] of [
      ['api-es', 'api'],
      ['indexer-es', 'indexer'],
    ] as const) {
      expect(services[es].profiles).toEqual(['elasticsearch']);
      expect(services[es].command).toEqual(services[os].command);
      expect(services[es].environment).toEqual({
        ...services[os].environment,
        SEARCH_ENGINE: 'elasticsearch',
        SEARCH_URL: 'http://elasticsearch:9200',
      });
      expect(services[es].depends_on.elasticsearch).toEqual({ condition: 'service_healthy' });
      expect(services[es].depends_on.opensearch).toBeUndefined();
    }
    // Both API services may run at once only on different host ports.
    expect(services['api-es'].ports).not.toEqual(services.api.ports);
  });
});
