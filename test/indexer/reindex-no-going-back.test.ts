import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import type { ListingRecord } from '@guest/catalog';
import {
  importCatalogRecords,
  importCatalogText,
  parseCatalogNdjson,
  reindexAll,
  startOutboxWorker,
  verifyIndex,
  type OutboxWorker,
} from '@guest/indexer';
import { readApi } from '@guest/read-api';
import { demoNdjsonLines } from '../../indexer/src/demo/load-demo.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { eventually } from '../support/eventually.ts';
import { http } from '../support/http.ts';

/**
 * A full reindex while the catalog changes, watched as a guest watches it: a reader polls the
 * feed, the count and a search by title over HTTP at 10 Hz while retitles and unpublishes are
 * imported before, during and after the rebuild. Every answer is an observation of the state of
 * the records it shows (a title revision, or gone); once a reader was served a state, no later
 * answer may show an older one: not at the alias swap, not ever.
 */
const TARGETS = 60;
const MARKER = 'Quokka';
// Numbers shorter than four characters: matched exactly (no fuzziness), one per record.
const word = (k: number) => String(100 + k);
const titleOf = (k: number, rev: number) => `${MARKER} ${word(k)} rev ${rev}`;
/** Ordinal of a state: its title revision while published; gone (unpublished) is the last state. */
const GONE = Number.MAX_SAFE_INTEGER;

const silent = pino({ level: 'silent' });

describe('a reindex under catalog changes: no reader ever sees a record go back to an older state', () => {
  let t: TestApp;
  let worker: OutboxWorker;
  const records: ListingRecord[] = [];
  /** Listing id -> target number. */
  const targetOf = new Map<number, number>();

  beforeAll(async () => {
    // One reader asks 30 times a second: more than one address may ask for in production.
    t = await startTestApp({ apps: [readApi], config: { RATE_LIMIT_ADDRESS_PER_MIN: 100_000 } });
    const parsed = parseCatalogNdjson([
      ...demoNdjsonLines({ listings: 2000, events: 150, seed: 5, today: '2026-11-21' }),
    ]);
    expect(parsed.errors).toEqual([]);
    const published = parsed.records.filter(
      (l) => l.record.type === 'listing' && l.record.status === 'published',
    ) as Array<{ record: ListingRecord }>;
    // Spread over the whole id range, so the rebuild reads some targets early and some late.
    const step = Math.floor(published.length / TARGETS);
    for (let k = 0; k < TARGETS; k++) {
      const r = published[k * step]!.record;
      r.title = { en: titleOf(k, 0) };
      r.original_lang = 'en';
      records.push(r);
    }
    await importCatalogRecords(t.runtime.database, parsed.records);
    await reindexAll(t.runtime, silent, { absorbOutbox: true, oldIndexGraceMs: 0 });
    const { rows } = await t.sql.query<{ id: number; external_id: string }>(
      'select id, external_id from listings where external_id = any($1)',
      [records.map((r) => r.external_id)],
    );
    for (const row of rows)
      targetOf.set(
        row.id,
        records.findIndex((r) => r.external_id === row.external_id),
      );
    worker = await startOutboxWorker(t.runtime, silent);
  }, 300_000);
  afterAll(async () => {
    await worker?.stop();
    await t?.close();
  });

  const feed = (q: string) =>
    http(t.url, 'GET', `/v1/search/listings?${new URLSearchParams({ q, limit: '100', lang: 'en' })}`);

  it('rule: retitles and unpublishes sent throughout a rebuild are never seen going back in feed, count or search', async () => {
    // The reader's view. An answer is later than another only if it was asked for after that one
    // came back; per record, every state served so far with when it came back.
    const served = new Map<number, Array<{ ord: number; at: number; via: string }>>();
    const back: Array<{ record: number; seen: string; after: string }> = [];
    const counts: Array<{ n: number; at: number }> = [];
    const countUps: string[] = [];
    let polls = 0;
    const started = Date.now();
    const at = (ms = Date.now()) => ((ms - started) / 1000).toFixed(2);
    const show = (ord: number) => (ord === GONE ? 'gone' : `rev ${ord}`);
    const observe = (k: number, ord: number, via: string, askedAt: number) => {
      const history = served.get(k) ?? [];
      const before = history.filter((h) => h.at < askedAt);
      const newest = before.reduce<(typeof history)[number] | undefined>(
        (m, h) => (!m || h.ord > m.ord ? h : m),
        undefined,
      );
      if (newest && ord < newest.ord) {
        back.push({
          record: k,
          seen: `${show(ord)} via ${via} asked at ${at(askedAt)} s`,
          after: `${show(newest.ord)} via ${newest.via} at ${at(newest.at)} s`,
        });
      }
      history.push({ ord, at: Date.now(), via });
      served.set(k, history);
    };
    const newestOf = (k: number) => Math.max(-1, ...(served.get(k) ?? []).map((h) => h.ord));
    const revOf = (title: string) => Number(/ rev (\d+)$/.exec(title)?.[1] ?? NaN);

    const readFeed = async () => {
      const askedAt = Date.now();
      const all = await feed(MARKER);
      if (all.status !== 200) throw new Error(`feed answered ${all.status}`);
      const shown = new Set<number>();
      for (const item of all.body.items as Array<{ id: number; title: string }>) {
        const k = targetOf.get(item.id);
        if (k === undefined) continue;
        shown.add(k);
        observe(k, revOf(item.title), 'feed', askedAt);
      }
      for (let k = 0; k < TARGETS; k++) if (!shown.has(k)) observe(k, GONE, 'feed', askedAt);
    };
    const readCount = async () => {
      const askedAt = Date.now();
      const count = await http(t.url, 'GET', `/v1/search/count?${new URLSearchParams({ q: MARKER })}`);
      if (count.status !== 200) throw new Error(`count answered ${count.status}`);
      // Only unpublishing changes the count, and nothing is published again: it may only go down.
      const lowest = Math.min(...counts.filter((c) => c.at < askedAt).map((c) => c.n));
      if (count.body.count > lowest) countUps.push(`${lowest} → ${count.body.count} asked at ${at(askedAt)} s`);
      counts.push({ n: count.body.count, at: Date.now() });
    };
    const readTitle = async (k: number) => {
      const askedAt = Date.now();
      const one = await feed(word(k));
      if (one.status !== 200) throw new Error(`search answered ${one.status}`);
      const hit = (one.body.items as Array<{ id: number; title: string }>).find((i) => targetOf.get(i.id) === k);
      observe(k, hit ? revOf(hit.title) : GONE, 'search by title', askedAt);
    };
    let inFlight = 0;
    let failure: unknown = null;
    // 10 Hz: every 100 ms the feed, the count and a search by one record's title word are asked
    // for at once (at most three such ticks under way; a slower answer does not hold the next).
    const ticker = setInterval(() => {
      if (inFlight >= 3) return;
      inFlight++;
      polls++;
      Promise.all([readFeed(), readCount(), readTitle(polls % TARGETS)]).then(
        () => inFlight--,
        (err: unknown) => {
          failure ??= err;
          inFlight--;
        },
      );
    }, 100);

    // The writer: one record per import, each a new title revision or (now and then) an unpublish.
    const rev = new Array<number>(TARGETS).fill(0);
    const gone = new Set<number>();
    let writes = 0;
    let unpublishes = 0;
    let rng = 42;
    const random = () => (rng = (rng * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const writeOne = async () => {
      const live = [...Array(TARGETS).keys()].filter((k) => !gone.has(k));
      const k = live[Math.floor(random() * live.length)]!;
      const record = { ...records[k]! };
      if (live.length > TARGETS / 2 && random() < 0.1) {
        gone.add(k);
        unpublishes++;
        record.status = 'archived';
      } else {
        rev[k] = rev[k]! + 1;
        record.title = { en: titleOf(k, rev[k]!) };
      }
      records[k] = record;
      await importCatalogText(t.runtime.database, JSON.stringify(record));
      writes++;
    };
    // A change every 40 ms (when the one before is in) from before the rebuild starts to after it ends.
    let writing: Promise<void> | null = null;
    const writer = setInterval(() => {
      writing ??= writeOne().then(
        () => void (writing = null),
        (err: unknown) => {
          failure ??= err;
          writing = null;
        },
      );
    }, 40);
    let rebuild: Awaited<ReturnType<typeof reindexAll>> | null = null;
    try {
      await eventually('the first changes', () => writes >= 5);
      rebuild = await reindexAll(t.runtime, silent, {});
    } finally {
      clearInterval(writer);
      await writing;
    }
    // A few more after the rebuild: the new indices take changes as the old ones did.
    for (let i = 0; i < 10; i++) await writeOne();

    // Until the reader has been served every record's final state.
    try {
      await eventually(
        'the reader to see every final state',
        () => [...Array(TARGETS).keys()].filter((k) => newestOf(k) !== (gone.has(k) ? GONE : rev[k])),
        { timeoutMs: 60_000, until: (left) => left.length === 0 || failure !== null },
      );
    } finally {
      clearInterval(ticker);
      await eventually('the last polls to end', () => inFlight === 0);
    }
    if (failure) throw failure;
    const seconds = (Date.now() - started) / 1000;
    console.info(
      `no-going-back: ${writes} writes (${unpublishes} unpublishes) during and after a rebuild of ` +
        `${rebuild!.seconds.toFixed(1)} s (caught up ${rebuild!.caughtUp.changes} in ${rebuild!.caughtUp.rounds} rounds), ${polls} polls in ` +
        `${seconds.toFixed(1)} s (${(polls / seconds).toFixed(1)} Hz); records seen going back: ` +
        `${new Set(back.map((b) => b.record)).size} (${back.length} answers), count going up: ${countUps.length}`,
    );
    expect(writes, 'changes were sent while the rebuild ran').toBeGreaterThan(20);
    expect(back, 'answers that showed a record older than one already served').toEqual([]);
    expect(countUps, 'counts that went up (an unpublished listing back)').toEqual([]);
    expect((await verifyIndex(t.runtime)).drift).toBe(0);
  }, 300_000);
});
