#!/usr/bin/env -S npx tsx
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { once } from 'node:events';
import { loadConfigOrExit } from '@guest/config';
import { createRuntime, systemClock, type Runtime } from '@guest/runtime';
import { CatalogImportError, importCatalogText } from './import/import-catalog.ts';
import { CatalogRecordNotFoundError, deleteCatalogRecord, isDeletableEntity } from './delete-record.ts';
import { reindexAll } from './reindex.ts';
import { verifyIndex, type IndexDrift } from './verify.ts';
import { startOutboxWorker } from './worker.ts';
import { listDeadLetters, replayDeadLetters } from './outbox/dead-letters.ts';
import { indexerStats, todayIn } from '@guest/catalog';
import { rollEventHorizon } from './horizon.ts';
import { startMaintenance } from './maintenance.ts';
import { ensureIndices } from './engine/aliases.ts';
import { demoNdjsonLines, loadDemoCatalog } from './demo/load-demo.ts';
import { progressBar } from './progress.ts';
import { createLogger } from './deps.ts';

const USAGE = `indexer <command>

  catalog import FILE            validate and import an NDJSON catalog file (all or nothing)
  catalog delete <listing|event> <external_id>
                                 delete one listing or event with its child rows; the worker
                                 removes its documents from the index
  reindex                        rebuild every index into fresh indices, swap aliases atomically
  verify                         compare Postgres with the index; exit 1 on drift
  worker                         apply catalog changes (outbox) to the index until stopped; also runs the
                                 hourly maintenance (horizon roll, expired Idempotency-Key purge)
  horizon roll                   move the event-occurrence horizon forward now
  stats                          indexer lag, retries and dead letters as JSON
  dead-letters list              changes that failed too often
  dead-letters replay [ID...]    queue them again (all without ids)
  demo generate [--listings N] [--events M] [--seed S] [--today YYYY-MM-DD] [--out FILE]
                                 write the demo catalog as NDJSON (stdout without --out)
  demo load [--listings N] [--events M] [--seed S]
                                 generate, import and index the demo catalog
`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    listings: { type: 'string' },
    events: { type: 'string' },
    seed: { type: 'string' },
    today: { type: 'string' },
    out: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
const [cmd, sub, ...rest] = positionals;

async function withRuntime<T>(fn: (rt: Runtime) => Promise<T>): Promise<T> {
  const rt = createRuntime(loadConfigOrExit());
  try {
    return await fn(rt);
  } finally {
    await rt.close();
  }
}

function printDrift(name: string, d: IndexDrift) {
  const n = d.missing.length + d.extra.length + d.stale.length;
  process.stdout.write(
    `${name.padEnd(9)} expected ${d.expected}, indexed ${d.indexed}, missing ${d.missing.length}, extra ${d.extra.length}, stale ${d.stale.length}\n`,
  );
  if (n) {
    const sample = [
      ...d.missing.slice(0, 10).map((id) => `  missing ${id}`),
      ...d.extra.slice(0, 10).map((id) => `  extra   ${id}`),
      ...d.stale.slice(0, 10).map((s) => `  stale   ${s}`),
    ];
    process.stdout.write(`${sample.join('\n')}\n`);
  }
}

/** Each command by its words: `catalog import`, `reindex`… (what follows them is its arguments). */
const COMMANDS: Record<string, () => Promise<number>> = {
  'catalog import': catalogImport,
  'catalog delete': catalogDelete,
  reindex: () =>
    withRuntime(async (rt) => {
      const r = await reindexAll(rt, createLogger(rt), { progress: true });
      process.stdout.write(
        `${JSON.stringify({ documents: r.documents, seconds: r.seconds, docs_per_s: Math.round(r.docsPerSecond) })}\n`,
      );
      return 0;
    }),
  verify: () =>
    withRuntime(async (rt) => {
      const r = await verifyIndex(rt);
      printDrift('listings', r.listings);
      printDrift('places', r.places);
      printDrift('events', r.events);
      process.stdout.write(`drift ${r.drift}\n`);
      return r.drift === 0 ? 0 : 1;
    }),
  stats: () =>
    withRuntime(async (rt) => {
      process.stdout.write(`${JSON.stringify(await indexerStats(rt.database))}\n`);
      return 0;
    }),
  'horizon roll': () =>
    withRuntime(async (rt) => {
      await ensureIndices(rt.search, rt.config.INDEX_PREFIX, rt.config.INDEX_REPLICAS);
      process.stdout.write(`${JSON.stringify(await rollEventHorizon(rt, createLogger(rt)))}\n`);
      return 0;
    }),
  'dead-letters list': () =>
    withRuntime(async (rt) => {
      for (const d of await listDeadLetters(rt.database, 1000)) process.stdout.write(`${JSON.stringify(d)}\n`);
      return 0;
    }),
  'dead-letters replay': () =>
    withRuntime(async (rt) => {
      const ids = rest.length ? rest.map(Number) : undefined;
      process.stdout.write(`replayed ${await replayDeadLetters(rt.database, ids)}\n`);
      return 0;
    }),
  'demo generate': demoGenerate,
  'demo load': () =>
    withRuntime(async (rt) => {
      const opts: { listings?: number; events?: number; seed?: number } = {};
      if (values.listings) opts.listings = Number(values.listings);
      if (values.events) opts.events = Number(values.events);
      if (values.seed) opts.seed = Number(values.seed);
      const r = await loadDemoCatalog(rt, { ...opts, log: createLogger(rt) });
      process.stdout.write(
        `${JSON.stringify({ import: r.import, reindex: r.reindex && { documents: r.reindex.documents, seconds: r.reindex.seconds } })}\n`,
      );
      return 0;
    }),
  worker,
};

async function catalogImport(): Promise<number> {
  const file = rest[0];
  if (!file) throw new Error('catalog import: FILE is required');
  return withRuntime(async (rt) => {
    const log = createLogger(rt);
    const bar = progressBar(`import ${file}`);
    try {
      const stats = await importCatalogText(rt.database, await readFile(file, 'utf8'), {
        batchSize: rt.config.CATALOG_IMPORT_BATCH,
        onProgress: (d, t) => bar.tick(d, t),
      });
      bar.done();
      log.info({ file, stats }, 'catalog imported');
      process.stdout.write(`${JSON.stringify(stats)}\n`);
      return 0;
    } catch (err) {
      if (err instanceof CatalogImportError) {
        process.stderr.write(`${err.message}\n`);
        return 65;
      }
      throw err;
    }
  });
}

async function catalogDelete(): Promise<number> {
  const [entity, externalId, ...extra] = rest;
  if (!isDeletableEntity(entity) || !externalId || extra.length) {
    process.stderr.write('usage: indexer catalog delete <listing|event> <external_id>\n');
    return 64;
  }
  return withRuntime(async (rt) => {
    try {
      const r = await deleteCatalogRecord(rt.database, entity, externalId);
      createLogger(rt).info({ deleted: r }, 'catalog record deleted');
      process.stdout.write(
        `${JSON.stringify({ deleted: r.entity, external_id: r.externalId, id: r.id, version: r.version })}\n`,
      );
      return 0;
    } catch (err) {
      if (err instanceof CatalogRecordNotFoundError) {
        process.stderr.write(`${err.message}\n`);
        return 65;
      }
      throw err;
    }
  });
}

async function demoGenerate(): Promise<number> {
  const config = loadConfigOrExit();
  const opts = {
    listings: num(values.listings) ?? config.DEMO_LISTINGS,
    events: num(values.events) ?? config.DEMO_EVENTS,
    seed: num(values.seed) ?? config.DEMO_SEED,
    today: values.today ?? todayIn('Asia/Bangkok', systemClock.now()),
  };
  const out = values.out ? createWriteStream(values.out) : process.stdout;
  for (const line of demoNdjsonLines(opts)) {
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  }
  if (values.out) {
    out.end();
    await once(out, 'finish');
  }
  return 0;
}

async function worker(): Promise<number> {
  // Started by `npm run dev` (an IPC channel): its end means dev is gone, so this worker goes
  // too, also when that happens while it is still starting.
  const devGone = new Promise<void>((resolve) => {
    if (process.channel) process.once('disconnect', resolve);
  });
  const rt = createRuntime(loadConfigOrExit());
  const log = createLogger(rt);
  const outbox = await startOutboxWorker(rt, log);
  // The horizon roll and the idempotency-key purge: pg-boss schedules, one run per period across all workers.
  const maintenance = await startMaintenance(rt, log);
  log.info({ prefix: rt.config.INDEX_PREFIX }, 'indexer worker started');
  await Promise.race([
    devGone,
    new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    }),
  ]);
  log.info('indexer worker stopping');
  await outbox.stop();
  await maintenance.stop();
  await rt.close();
  return 0;
}

async function main(): Promise<number> {
  if (values.help || !cmd) {
    process.stdout.write(USAGE);
    return cmd ? 0 : 64;
  }
  const command = COMMANDS[`${cmd} ${sub ?? ''}`.trim()] ?? (sub === undefined ? undefined : COMMANDS[cmd]);
  if (!command) {
    process.stderr.write(USAGE);
    return 64;
  }
  return command();
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`${err?.stack ?? err}\n`);
    process.exit(1);
  },
);
