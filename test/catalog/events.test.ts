import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '@guest/config';
import { fixedClock } from '@guest/runtime';
import { aliasName } from '@guest/catalog';
import {
  applyDeps,
  createLogger,
  drainOnce,
  drainOptions,
  ensureIndices,
  importCatalogText,
  rollEventHorizon,
  verifyIndex,
} from '@guest/indexer';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';

const fixture = (name: string) => readFile(path.join(repoRoot, 'test/fixtures/catalog', name), 'utf8');

describe('event occurrences in the index (180-day horizon, venue zone)', () => {
  let t: TestRuntime;
  let events: string;
  const clock = fixedClock('2026-11-21T05:00:00Z');
  const drain = async () => {
    const r = await drainOnce(t.runtime.database, applyDeps(t.runtime), drainOptions(t.runtime));
    await t.runtime.search.refresh(events);
    return r;
  };
  const occurrences = async (slug: string) => {
    const res = await t.runtime.search.search<any>(events, {
      query: { term: { slug } },
      size: 500,
      sort: [{ start_at: 'asc' }],
    });
    return res.hits.map((h) => h._source);
  };

  beforeAll(async () => {
    t = await startTestRuntime({ clock });
    events = aliasName(t.config.INDEX_PREFIX, 'events');
    await ensureIndices(t.runtime.search, t.config.INDEX_PREFIX);
    await importCatalogText(
      t.runtime.database,
      (await fixture('small.ndjson')) + (await fixture('events-berlin.ndjson')),
    );
    await drain();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('rule: weekly with exceptions — one document per occurrence, the excepted Wednesday is missing', async () => {
    const yoga = await occurrences('kata-beach-yoga');
    const days = yoga.map((o) => o.day);
    expect(days[0]).toBe('2026-11-23');
    expect(days).not.toContain('2026-12-02');
    expect(days).toContain('2026-11-30');
    expect(days).toContain('2026-12-04');
    expect(days).toContain('2026-12-05'); // the one-off at 20:00
    expect(days.at(-1)! <= '2027-05-19', 'nothing beyond the 180-day horizon').toBe(true);
    const dec4 = yoga.find((o) => o.day === '2026-12-04');
    expect(dec4).toMatchObject({
      start_time: '06:30',
      end_time: '07:30',
      start_at: '2026-12-03T23:30:00Z',
      timezone: 'Asia/Bangkok',
      entry: 'free',
      audience: 'family',
      crowd: 'small',
      event_lang: 'multi',
      category: { code: 'wellness' },
    });
    expect(dec4.venue.point).toEqual({ lat: 7.8183, lon: 98.2961 });
  });

  it('rule: an event ending after midnight keeps its start day, ends next day in UTC terms', async () => {
    const [party] = await occurrences('kata-night-party');
    expect(party).toMatchObject({
      day: '2026-11-28',
      start_time: '22:00',
      end_time: '03:00',
      ends_next_day: true,
      start_at: '2026-11-28T15:00:00Z',
      end_at: '2026-11-28T20:00:00Z',
    });
  });

  it('rule: a zone with daylight saving — Berlin Sundays stay at 10:00 local, UTC shifts on 2027-03-28', async () => {
    const brunch = await occurrences('berlin-sunday-brunch');
    expect(brunch.map((o) => [o.day, o.start_time, o.start_at])).toEqual([
      ['2027-03-21', '10:00', '2027-03-21T09:00:00Z'],
      ['2027-03-27', '22:00', '2027-03-27T21:00:00Z'],
      ['2027-03-28', '10:00', '2027-03-28T08:00:00Z'],
      ['2027-04-04', '10:00', '2027-04-04T08:00:00Z'],
    ]);
    expect(brunch[1].end_at).toBe('2027-03-28T01:00:00Z');
  });

  it('rule: the daily roll drops past days and adds the days entering the horizon; verify stays at zero drift', async () => {
    clock.set('2026-11-29T05:00:00Z');
    const r = await rollEventHorizon(t.runtime, createLogger(t.runtime));
    await t.runtime.search.refresh(events);
    expect(r.removed).toBeGreaterThan(0);
    expect(await occurrences('kata-night-party')).toEqual([]);
    const yoga = (await occurrences('kata-beach-yoga')).map((o) => o.day);
    expect(yoga[0]).toBe('2026-11-30');
    expect(yoga.at(-1)).toBe('2027-05-26'); // a Wednesday, last day of the new horizon 2026-11-29 + 179
    expect((await verifyIndex(t.runtime)).drift).toBe(0);
  });

  it('rule: an edited schedule removes the occurrences that left it; unpublishing removes them all', async () => {
    const base = (await fixture('small.ndjson')) + (await fixture('events-berlin.ndjson'));
    const edited = base.replace('{"date":"2026-12-05","start":"20:00","end":"23:30"},', '');
    await importCatalogText(t.runtime.database, edited);
    await drain();
    expect((await occurrences('kata-beach-yoga')).map((o) => o.day)).not.toContain('2026-12-05');
    expect((await verifyIndex(t.runtime)).drift).toBe(0);
    await importCatalogText(
      t.runtime.database,
      edited.replace('"slug":"kata-beach-yoga","status":"published"', '"slug":"kata-beach-yoga","status":"archived"'),
    );
    await drain();
    expect(await occurrences('kata-beach-yoga')).toEqual([]);
    expect((await verifyIndex(t.runtime)).drift).toBe(0);
  });
});
