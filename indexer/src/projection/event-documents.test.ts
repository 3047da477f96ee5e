import { describe, expect, it } from 'vitest';
import { projectEventOccurrences, type EventSource } from './event-documents.ts';
import { projectPlace } from './place-document.ts';
import type { PlaceRow, ProjectionContext } from './context.ts';

const place = (
  id: number,
  parentId: number | null,
  level: PlaceRow['level'],
  name: Record<string, string>,
): PlaceRow => ({
  id,
  externalId: `P-${id}`,
  parentId,
  level,
  slug: `p-${id}`,
  name,
  timezone: 'Asia/Bangkok',
  currency: 'THB',
  centerLat: 7.8,
  centerLon: 98.3,
  popular: true,
  contentHash: 'h',
  version: id,
  updatedAt: new Date(0),
});
const ctx: ProjectionContext = {
  places: new Map([
    [1, place(1, null, 'country', { en: 'Thailand', ru: 'Таиланд' })],
    [2, place(2, 1, 'district', { en: 'Kata', ru: 'Ката' })],
  ]),
  categories: new Map([
    [
      5,
      {
        id: 5,
        code: 'nightlife',
        kind: 'event',
        name: { en: 'Nightlife' },
        contentHash: 'h',
        version: 9,
        updatedAt: new Date(0),
      },
    ],
  ]),
  fx: null,
};
const event = (status: 'published' | 'draft' = 'published'): EventSource => ({
  event: {
    id: 3,
    externalId: 'E-3',
    slug: 'party',
    status,
    title: { en: 'Party' },
    description: {},
    originalLang: 'en',
    categoryId: 5,
    placeId: 2,
    venueName: { en: 'Bar' },
    venueLat: 7.81,
    venueLon: 98.29,
    timezone: 'Asia/Bangkok',
    entry: 'paid',
    priceMinor: 50000,
    currency: 'THB',
    audience: 'adults',
    crowd: 'large',
    eventLang: 'en',
    contentHash: 'h',
    version: 30,
    updatedAt: new Date(0),
  },
  schedule: [
    {
      eventId: 3,
      position: 0,
      kind: 'once',
      date: '2026-11-28',
      days: null,
      dateFrom: null,
      dateUntil: null,
      exceptDates: null,
      startTime: '22:00',
      endTime: '03:00',
    },
  ],
});

describe('projectEventOccurrences (pure)', () => {
  it('given a published one-off ending after midnight, then one document with local times, UTC instants and the event fields', () => {
    const [o] = projectEventOccurrences(event(), ctx, new Date('2026-11-21T00:00:00Z'), 180);
    expect(o!.id).toBe('3:2026-11-28:0');
    expect(o!.doc).toMatchObject({
      event_id: 3,
      version: 30,
      day: '2026-11-28',
      start_time: '22:00',
      end_time: '03:00',
      start_minute: 1320,
      local_start_key: Date.parse('2026-11-28T22:00:00Z'),
      ends_next_day: true,
      start_at: '2026-11-28T15:00:00Z',
      end_at: '2026-11-28T20:00:00Z',
      category: { id: 5, code: 'nightlife' },
      location: { lat: 7.81, lon: 98.29 },
      place_path_ids: [1, 2],
      place_names: { en: ['Thailand', 'Kata'], ru: ['Таиланд', 'Ката'] },
      price_base_minor: 50000,
    });
  });

  it('given a draft event, then no documents', () => {
    expect(projectEventOccurrences(event('draft'), ctx, new Date('2026-11-21T00:00:00Z'), 180)).toEqual([]);
  });

  it('given "now" after midnight while the occurrence that started the day before still runs, then it is kept', () => {
    const docs = projectEventOccurrences(event(), ctx, new Date('2026-11-28T17:30:00Z'), 180); // 00:30 on the 29th in Bangkok
    expect(docs.map((o) => o.id)).toEqual(['3:2026-11-28:0']);
  });

  it('given "now" at its end (03:00 on the 29th in Bangkok), then it is outside the horizon', () => {
    expect(projectEventOccurrences(event(), ctx, new Date('2026-11-28T20:00:00Z'), 180)).toEqual([]);
  });
});

describe('projectPlace (pure)', () => {
  it('given a district, then its path, full names per language and suggest names', () => {
    const doc = projectPlace(ctx.places.get(2)!, ctx);
    expect(doc).toMatchObject({
      id: 2,
      parent_id: 1,
      level: 'district',
      path_ids: [1, 2],
      path: [{ id: 1, slug: 'p-1', level: 'country', name: { en: 'Thailand', ru: 'Таиланд' } }],
      name_full: { en: 'Kata, Thailand', ru: 'Ката, Таиланд' },
      center: { lat: 7.8, lon: 98.3 },
      suggest: ['Kata', 'Ката'],
      version: 2,
    });
  });
});
