import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readEnvFile, stackEnvFile } from '@guest/config';
import { ensureDir } from './util.ts';

/** `.data/stack.env`: the URLs that the last `stack up` found or started (read by libs/config). */
export const stackEnvPath = stackEnvFile();

export type SearchEngineName = 'opensearch' | 'elasticsearch';

export interface StackUrls {
  databaseUrl: string;
  redisUrl: string;
  /** SEARCH_ENGINE: which engine the stack found or started */
  searchEngine: SearchEngineName;
  /** SEARCH_URL: the engine's URL (first node) */
  searchUrl: string;
  /** every node's URL (first = searchUrl) */
  searchUrls: string[];
  /** OPENSEARCH_URL (= searchUrl), only when the engine is OpenSearch */
  opensearchUrl?: string;
  /** every OpenSearch node's URL, only when the engine is OpenSearch */
  opensearchUrls?: string[];
}

/** Plain `KEY=value` lines, no quoting (values are URLs): the format `readEnvFile` reads. */
export function writeStackEnv(urls: StackUrls, file = stackEnvPath): void {
  ensureDir(path.dirname(file));
  const lines = [
    '# Written by `npm run stack:up` (scripts/stack). Variables set in the environment win over this file.',
    `DATABASE_URL=${urls.databaseUrl}`,
    `REDIS_URL=${urls.redisUrl}`,
    `SEARCH_ENGINE=${urls.searchEngine}`,
    `SEARCH_URL=${urls.searchUrl}`,
  ];
  if (urls.searchUrls.length > 1) lines.push(`SEARCH_URLS=${urls.searchUrls.join(',')}`);
  // OPENSEARCH_URL(S) as before, for the code that reads only these
  if (urls.opensearchUrl) lines.push(`OPENSEARCH_URL=${urls.opensearchUrl}`);
  if (urls.opensearchUrls && urls.opensearchUrls.length > 1)
    lines.push(`OPENSEARCH_URLS=${urls.opensearchUrls.join(',')}`);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, lines.join('\n') + '\n');
  renameSync(tmp, file); // readers never see a half-written file
}

/** What the stack file holds now, parsed as libs/config parses it when a process starts. */
export function readStackEnv(file = stackEnvPath): Record<string, string> {
  return readEnvFile(file);
}
