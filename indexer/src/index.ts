// Public surface of the indexer: import, delete, projections, rebuild, verify, worker, maintenance, demo data.
export {
  importCatalogText,
  importCatalogRecords,
  CatalogImportError,
  type ImportStats,
} from './import/import-catalog.ts';
export { parseCatalogNdjson } from './import/parse-ndjson.ts';
export {
  deleteCatalogRecord,
  CatalogRecordNotFoundError,
  DELETABLE_ENTITIES,
  type DeletableEntity,
  type DeletedRecord,
} from './delete-record.ts';
export { reindexAll, type ReindexResult } from './reindex.ts';
export { verifyIndex, type VerifyReport } from './verify.ts';
export { startOutboxWorker, type OutboxWorker } from './worker.ts';
export { drainOnce } from './outbox/drain.ts';
export { CATALOG_CHANGES_QUEUE, signalCatalogChanges } from './outbox/signal.ts';
export { indexerStats, type IndexerStats } from '@guest/catalog';
export { listDeadLetters, replayDeadLetters } from './outbox/dead-letters.ts';
export { rollEventHorizon } from './horizon.ts';
export { startMaintenance, MAINTENANCE_JOBS, type Maintenance, type MaintenanceJob } from './maintenance.ts';
export { ensureIndices, staleIndexKinds } from './engine/aliases.ts';
export { applyDeps, drainOptions, createLogger } from './deps.ts';
export { loadDemoCatalog, loadDemoIntoEmptyCatalog, demoNdjsonLines, type DevCatalogResult } from './demo/load-demo.ts';
export { generateDemoCatalog } from './demo/generate-demo.ts';
