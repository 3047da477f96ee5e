// Public surface of the indexer: import, projections, rebuild, verify, worker, demo data.
export {
  importCatalogText,
  importCatalogRecords,
  CatalogImportError,
  type ImportStats,
} from './import/import-catalog.ts';
export { parseCatalogNdjson } from './import/parse-ndjson.ts';
export { reindexAll, type ReindexResult } from './reindex.ts';
export { verifyIndex, type VerifyReport } from './verify.ts';
export { startOutboxWorker, type OutboxWorker } from './worker.ts';
export { drainOnce } from './outbox/drain.ts';
export { indexerStats, type IndexerStats } from '@guest/catalog';
export { listDeadLetters, replayDeadLetters } from './outbox/dead-letters.ts';
export { rollEventHorizon } from './horizon.ts';
export { ensureIndices } from './engine/aliases.ts';
export { applyDeps, drainOptions, createLogger } from './deps.ts';
export { loadDemoCatalog, demoNdjsonLines } from './demo/load-demo.ts';
export { generateDemoCatalog } from './demo/generate-demo.ts';
