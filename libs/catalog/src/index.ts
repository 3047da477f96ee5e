// What the indexer writes and the read API reads: record schemas, index names, documents, FX.
export * from './languages.ts';
export * from './vocabulary.ts';
export * from './listing-attributes.ts';
export * from './records.ts';
export * from './index-names.ts';
export * from './documents.ts';
export * from './fx.ts';
export * from './indexer-stats.ts';
export * from './zoned-time.ts';
export * from './photos.ts';
