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
import { startTestRuntime, type TestRuntime } from '../support/test-app.ts';

const fixture = (name: string) => readFile(path.join(repoRoot, 'test/fixtures/catalog', name), 'utf8');

// Every day, so any day the horizon roll fails to write shows up as a missing occurrence; and it
// runs past midnight, so there is always one that started yesterday and is still running at 00:30.
const NIGHT_MARKET = JSON.stringify({
  type: 'event',
  external_id: 'E-79',
  slug: 'kata-night-market',
  status: 'published',
  title: { en: 'Kata night market' },
  description: {},
  original_lang: 'en',
  category: 'nightlife',
  place: 'P-KATA',
  venue: { name: { en: 'Kata market' }, lat: 7.819, lon: 98.297 },
  timezone: 'Asia/Bangkok',
  entry: 'free',
  price: { amount_minor: 0, currency: 'THB' },
  audience: 'family',
  crowd: 'large',
  event_lang: 'multi',
  schedule: [
    {
      weekly: {
        days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
        start: '21:00',
        end: '01:00',
        from: '2026-11-01',
        until: '2027-12-31',
      },
      except: [],
    },
  ],
});

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
    await ensureIndices(t.runtime.search, t.config.INDEX_PREFIX, t.config.INDEX_REPLICAS);
    await importCatalogText(
      t.runtime.database,
      (await fixture('small.ndjson')) + (await fixture('events-berlin.ndjson')) + `${NIGHT_MARKET}\n`,
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

  it('rule: the roll drops past days and adds every day that entered the horizon since the last roll, however long ago; verify stays at zero drift', async () => {
    const roll = async () => {
      const r = await rollEventHorizon(t.runtime, createLogger(t.runtime));
      await t.runtime.search.refresh(events);
      return r;
    };
    await roll(); // 2026-11-21: the horizon ends on 2027-05-19
    clock.set('2026-11-29T05:00:00Z'); // eight days without a roll: now it ends on 2027-05-27
    const r = await roll();
    expect(r.removed).toBeGreaterThan(0);
    expect(await occurrences('kata-night-party')).toEqual([]);
    const yoga = (await occurrences('kata-beach-yoga')).map((o) => o.day);
    expect(yoga[0]).toBe('2026-11-30');
    expect(yoga.at(-1)).toBe('2027-05-26'); // a Wednesday; the new horizon is 2026-11-29 + 179
    const market = (await occurrences('kata-night-market')).map((o) => o.day);
    expect(market[0]).toBe('2026-11-29');
    expect(market, 'a day between the two rolls is written').toContain('2027-05-20');
    expect(market.at(-1)).toBe('2027-05-27');
    expect(market).toHaveLength(180);
    // Only the days that entered the window were written, not the whole window again.
    const entered = await t.runtime.search.count(events, { query: { range: { day: { gte: '2027-05-20' } } } });
    expect(r.written).toBe(entered);
    expect((await verifyIndex(t.runtime)).drift).toBe(0);
  });

  it('rule: an occurrence that started yesterday and is still running after midnight stays until it ends', async () => {
    clock.set('2026-11-29T17:30:00Z'); // 00:30 on the 30th in Bangkok: the market of the 29th runs until 01:00
    await rollEventHorizon(t.runtime, createLogger(t.runtime));
    await t.runtime.search.refresh(events);
    const [running] = await occurrences('kata-night-market');
    expect(running).toMatchObject({
      day: '2026-11-29',
      start_time: '21:00',
      end_time: '01:00',
      ends_next_day: true,
      end_at: '2026-11-29T18:00:00Z',
    });
    expect((await verifyIndex(t.runtime)).drift, 'the projection keeps it too').toBe(0);

    clock.set('2026-11-29T18:30:00Z'); // 01:30: it has ended
    await rollEventHorizon(t.runtime, createLogger(t.runtime));
    await t.runtime.search.refresh(events);
    expect((await occurrences('kata-night-market'))[0].day).toBe('2026-11-30');
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
