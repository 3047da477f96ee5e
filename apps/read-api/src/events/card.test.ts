import { describe, expect, it } from 'vitest';
import type { EventOccurrenceDocument } from '@guest/catalog';
import { toEventCard, toEventPoint, type EventPointSource } from './card.ts';

const doc = {
  event_id: 5,
  slug: 'thai-cooking-class',
  day: '2026-12-02',
  start_time: '23:00',
  end_time: '01:00',
  ends_next_day: true,
  start_at: '2026-12-02T16:00:00Z',
  end_at: '2026-12-02T18:00:00Z',
  timezone: 'Asia/Bangkok',
  category: { id: 1, code: 'workshop', name: { en: 'Workshop' } },
  entry: 'paid',
  price_minor: 120000,
  currency: 'THB',
  audience: 'family',
  crowd: 'intimate',
  event_lang: 'ru',
  title: { en: 'Thai cooking class', ru: 'Кулинарный мастер-класс' },
  description: {},
  original_lang: 'ru',
  venue: { name: { en: 'Kata kitchen' }, point: { lat: 7.8, lon: 98.3 } },
  location: { lat: 7.8, lon: 98.3 },
  place: { id: 3, slug: 'kata', level: 'district', name: { en: 'Kata', ru: 'Ката' } },
} as unknown as EventOccurrenceDocument;

describe('toEventCard', () => {
  it('answers in the request language and marks a text that is not the original', () => {
    expect(toEventCard(doc, 'ru')).toMatchObject({ title: 'Кулинарный мастер-класс', lang: 'ru', translated: false });
    expect(toEventCard(doc, 'en')).toMatchObject({ title: 'Thai cooking class', lang: 'en', translated: true });
  });
  it('falls back to English for a missing language, everywhere', () => {
    expect(toEventCard(doc, 'th')).toMatchObject({
      title: 'Thai cooking class',
      lang: 'en',
      category: { code: 'workshop', name: 'Workshop' },
      venue: { name: 'Kata kitchen', place_name: 'Kata' },
      place: { id: 3, slug: 'kata', name: 'Kata' },
    });
  });
  it('keeps venue-local times and the next-day end as they are', () => {
    expect(toEventCard(doc, 'en')).toMatchObject({
      day: '2026-12-02',
      start_time: '23:00',
      end_time: '01:00',
      ends_next_day: true,
    });
  });
});

describe('toEventPoint', () => {
  // What the events map asks the engine for: nothing else comes back.
  const point: EventPointSource = {
    event_id: 5,
    slug: 'thai-cooking-class',
    title: { en: 'Thai cooking class', ru: 'Кулинарный мастер-класс' },
    original_lang: 'ru',
    category: { code: 'workshop' },
    day: '2026-12-02',
    start_time: '23:00',
    location: { lat: 7.8, lon: 98.3 },
  };
  it('titles a point as its card: the request language, else the original, else the slug', () => {
    expect(toEventPoint(point, 'en')).toEqual({
      id: 5,
      slug: 'thai-cooking-class',
      title: 'Thai cooking class',
      category_code: 'workshop',
      day: '2026-12-02',
      start_time: '23:00',
      lat: 7.8,
      lon: 98.3,
    });
    expect(toEventPoint(point, 'th').title).toBe(toEventCard(doc, 'th').title);
    expect(toEventPoint(point, 'ru').title).toBe('Кулинарный мастер-класс');
    expect(toEventPoint({ ...point, title: {} }, 'en').title).toBe('thai-cooking-class');
  });
});
