import type { CatalogRecordInput, ContentLanguage, ListingKind } from '@guest/catalog';
import { CONTENT_LANGUAGES, DEMO_PHOTOS_PER_LISTING, addDays, demoPhotoPath } from '@guest/catalog';
import { THAILAND, type DemoPlace } from './thailand-places.ts';
import {
  AMENITIES,
  CURRENCIES,
  DESCRIPTION_PARTS,
  DIETS,
  EVENT_CATEGORIES,
  EXPERIENCES,
  FOOD,
  SERVICES,
  STAY_ADJECTIVES,
  STAY_TYPES,
  TRANSPORT,
  type L4,
} from './vocabulary.ts';

export interface DemoOptions {
  listings: number;
  events: number;
  seed: number;
  /** First day the demo's dates are relative to (blocked ranges, event schedules). */
  today: string;
}

/** mulberry32: tiny, fast and good enough to make the same catalog from the same seed. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    chance: (p: number) => next() < p,
    some: <T>(items: readonly T[], p: number): T[] => items.filter(() => next() < p),
  };
}
type Rng = ReturnType<typeof prng>;

const KINDS = ['stay', 'experience', 'service', 'transport', 'food'] as const;
const KIND_SHARE = [0.5, 0.15, 0.1, 0.1, 0.15];
const ORIGINAL_LANG: Array<[ContentLanguage, number]> = [
  ['en', 0.5],
  ['ru', 0.25],
  ['th', 0.15],
  ['zh-Hans', 0.1],
];

function weighted<T>(rng: Rng, items: Array<[T, number]>): T {
  let r = rng.next() * items.reduce((s, [, wt]) => s + wt, 0);
  for (const [item, wt] of items) {
    r -= wt;
    if (r <= 0) return item;
  }
  return items[items.length - 1]![0];
}

/**
 * Texts in the original language always; English mostly; the others often, and some left out
 * on purpose, so readers exercise the English fallback and the translation marker.
 */
function texts(rng: Rng, original: ContentLanguage, make: (lang: ContentLanguage) => string) {
  const out: Partial<Record<ContentLanguage, string>> = {};
  for (const lang of CONTENT_LANGUAGES) {
    const keep = lang === original || (lang === 'en' ? rng.chance(0.9) : rng.chance(0.7));
    if (keep) out[lang] = make(lang);
  }
  return out;
}

const placeName = (pl: DemoPlace, lang: ContentLanguage) => pl.name[lang] ?? pl.name.en;

function describe(rng: Rng, original: ContentLanguage, title: L4, pl: DemoPlace) {
  return texts(rng, original, (l) =>
    `${title[l]}. ${DESCRIPTION_PARTS.near![l]} ${placeName(pl, l)}. ${DESCRIPTION_PARTS.friendly![l]} ${DESCRIPTION_PARTS.book![l]}`.trim(),
  );
}

/**
 * Pictures the API makes and serves itself (`/demo-photos/…`, a path on its own origin that it
 * answers as an absolute URL), so the demo shows photos without internet; `large` on some only,
 * as the spec allows. The draws from `rng` are the same as with the image host used before, so
 * the rest of the catalog did not change with them.
 */
function photos(rng: Rng, listing: number, kind: ListingKind) {
  return Array.from({ length: rng.int(1, DEMO_PHOTOS_PER_LISTING) }, (_, index) => ({
    thumb: demoPhotoPath({ kind, listing, index, size: 'thumb' }),
    medium: demoPhotoPath({ kind, listing, index, size: 'medium' }),
    large: rng.chance(0.6) ? demoPhotoPath({ kind, listing, index, size: 'large' }) : null,
  }));
}

function priceFor(rng: Rng, thbMajor: number) {
  const cur = weighted(rng, [
    [CURRENCIES[0]!, 0.75],
    [CURRENCIES[1]!, 0.1],
    [CURRENCIES[2]!, 0.05],
    [CURRENCIES[3]!, 0.05],
    [CURRENCIES[4]!, 0.05],
  ]);
  return { amount_minor: Math.max(100, Math.round(thbMajor * cur.rate) * 100), currency: cur.code };
}

/** The reference records: currencies, one FX table, categories, amenities, places. */
function* referenceRecords(opts: DemoOptions): Generator<CatalogRecordInput> {
  for (const c of CURRENCIES) yield { type: 'currency', code: c.code, name: c.name, symbol: c.symbol, minor_units: 2 };
  yield {
    type: 'fx_rate',
    base: 'THB',
    date: opts.today,
    source: 'demo (central bank rates, rounded)',
    fetched_at: `${opts.today}T09:00:00Z`,
    rates: Object.fromEntries(CURRENCIES.filter((c) => c.code !== 'THB').map((c) => [c.code, c.rate])),
  };
  for (const e of EXPERIENCES) yield { type: 'category', kind: 'experience', code: e.code, name: e.name };
  for (const s of SERVICES) yield { type: 'category', kind: 'service', code: s.code, name: s.name };
  for (const t of TRANSPORT) yield { type: 'category', kind: 'transport', code: t.code, name: t.name };
  for (const f of FOOD) yield { type: 'category', kind: 'food', code: f.code, name: f.name };
  for (const e of EVENT_CATEGORIES) yield { type: 'category', kind: 'event', code: e.code, name: e.name };
  for (const a of AMENITIES) {
    yield { type: 'amenity', code: a.code, group: a.group, kinds: a.kinds as never, name: a.name };
  }
  for (const pl of THAILAND) {
    yield {
      type: 'place',
      external_id: `DEMO-P-${pl.key}`,
      parent: pl.parent ? `DEMO-P-${pl.parent}` : null,
      level: pl.level,
      slug: pl.key,
      name: pl.name,
      timezone: 'Asia/Bangkok',
      currency: 'THB',
      center: { lat: pl.lat, lon: pl.lon },
      popular: pl.popular ?? false,
    };
  }
}

function listingRecord(rng: Rng, n: number, opts: DemoOptions, leaves: Array<[DemoPlace, number]>): CatalogRecordInput {
  const id = `DEMO-L-${String(n).padStart(6, '0')}`;
  const kind = weighted(
    rng,
    KINDS.map((k, i) => [k, KIND_SHARE[i]!] as [(typeof KINDS)[number], number]),
  );
  const pl = weighted(rng, leaves);
  const original = weighted(rng, ORIGINAL_LANG);
  const mode = weighted(rng, [
    ['exact', 0.7],
    ['approximate', 0.25],
    ['city_only', 0.05],
  ] as Array<['exact' | 'approximate' | 'city_only', number]>);
  const spread = mode === 'exact' ? 0.015 : 0.03;
  const location =
    mode === 'city_only'
      ? { mode }
      : {
          mode,
          lat: Number((pl.lat + (rng.next() - 0.5) * spread).toFixed(5)),
          lon: Number((pl.lon + (rng.next() - 0.5) * spread).toFixed(5)),
        };
  const created = new Date(
    Date.parse(`${opts.today}T00:00:00Z`) - rng.int(1, 900) * 86_400_000 - rng.int(0, 86_399) * 1000,
  );
  const base = {
    type: 'listing' as const,
    external_id: id,
    kind,
    status: rng.chance(0.95)
      ? ('published' as const)
      : weighted(rng, [
          ['draft', 0.5],
          ['archived', 0.5],
        ] as Array<['draft' | 'archived', number]>),
    original_lang: original,
    place: `DEMO-P-${pl.key}`,
    location,
    rating: rng.chance(0.85)
      ? { avg: Number((3.5 + rng.next() * 1.5).toFixed(2)), count: rng.int(1, 400) }
      : { avg: null, count: 0 },
    photos: photos(rng, n, kind),
    instant_book: rng.chance(0.4),
    languages: ['en', ...rng.some(['ru', 'th', 'zh-Hans'] as const, 0.35)] as ContentLanguage[],
    created_at: created.toISOString().replace('.000Z', 'Z'),
  };
  const amenitiesFor = (k: string) =>
    rng.some(
      AMENITIES.filter((a) => a.kinds.includes(k)).map((a) => a.code),
      0.45,
    );
  switch (kind) {
    case 'stay': {
      const type = rng.pick(STAY_TYPES);
      const adj = rng.pick(STAY_ADJECTIVES.filter((a) => pl.beach || !a.beach));
      const bedrooms = type.code === 'hotel_room' ? 1 : rng.int(1, type.code === 'villa' ? 6 : 3);
      const title: L4 = {
        en: `${adj.en} ${type.name.en} in ${pl.name.en}`,
        ru: `${type.name.ru[0]!.toUpperCase()}${type.name.ru.slice(1)} ${adj.ru}, ${placeName(pl, 'ru')}`,
        th: `${type.name.th}${adj.th} ${placeName(pl, 'th')}`,
        'zh-Hans': `${placeName(pl, 'zh-Hans')}${adj['zh-Hans']}${type.name['zh-Hans']}`,
      };
      const unit = rng.chance(0.15) ? 'month' : 'night';
      const nightly = bedrooms * rng.int(600, 3500);
      const blocked = [];
      let day = addDays(opts.today, rng.int(0, 20));
      for (let i = rng.int(0, 3); i > 0; i--) {
        const to = addDays(day, rng.int(2, 10));
        blocked.push({ from: day, to });
        day = addDays(to, rng.int(3, 40));
      }
      return {
        ...base,
        title: texts(rng, original, (l) => title[l]),
        description: describe(rng, original, title, pl),
        price: { ...priceFor(rng, unit === 'month' ? nightly * 20 : nightly), unit },
        categories: [],
        amenities: amenitiesFor('stay'),
        blocked,
        stay: {
          property_type: type.code,
          room_type: type.code === 'hotel_room' ? 'private_room' : rng.chance(0.85) ? 'entire_place' : 'private_room',
          bedrooms,
          beds: bedrooms + rng.int(0, 2),
          bathrooms: Math.max(1, bedrooms - rng.int(0, 1)),
          max_guests: bedrooms * 2 + rng.int(0, 2),
          beach_distance_m: pl.beach ? rng.int(20, 2500) : null,
          pets_allowed: rng.chance(0.2),
          smoking_allowed: rng.chance(0.1),
          children_allowed: rng.chance(0.8),
          parties_allowed: rng.chance(0.05),
          long_stay: unit === 'month' || rng.chance(0.3),
        },
      };
    }
    case 'experience': {
      const e = rng.pick(EXPERIENCES);
      const title: L4 = {
        en: `${e.title.en} in ${pl.name.en}`,
        ru: `${e.title.ru}: ${placeName(pl, 'ru')}`,
        th: `${e.title.th} ${placeName(pl, 'th')}`,
        'zh-Hans': `${placeName(pl, 'zh-Hans')}${e.title['zh-Hans']}`,
      };
      return {
        ...base,
        title: texts(rng, original, (l) => title[l]),
        description: describe(rng, original, title, pl),
        price: { ...priceFor(rng, rng.int(500, 5000)), unit: 'person' },
        categories: [e.code],
        amenities: amenitiesFor('experience'),
        experience: {
          duration_min: rng.pick([60, 90, 120, 180, 240, 480]),
          group_size_max: rng.int(2, 20),
          same_day: rng.chance(0.5),
        },
      };
    }
    case 'service': {
      const s = rng.pick(SERVICES);
      const title: L4 = {
        en: `${s.title.en}, ${pl.name.en}`,
        ru: `${s.title.ru}, ${placeName(pl, 'ru')}`,
        th: `${s.title.th} ${placeName(pl, 'th')}`,
        'zh-Hans': `${placeName(pl, 'zh-Hans')}${s.title['zh-Hans']}`,
      };
      return {
        ...base,
        title: texts(rng, original, (l) => title[l]),
        description: describe(rng, original, title, pl),
        price: { ...priceFor(rng, rng.int(300, 3000)), unit: rng.pick(['hour', 'item'] as const) },
        categories: [s.code],
        amenities: amenitiesFor('service'),
        service: { duration_min: rng.pick([30, 60, 90, 120]), same_day: rng.chance(0.6) },
      };
    }
    case 'transport': {
      const t = rng.pick(TRANSPORT);
      const title: L4 = {
        en: `${t.title.en} in ${pl.name.en}`,
        ru: `${t.title.ru}, ${placeName(pl, 'ru')}`,
        th: `${t.title.th} ${placeName(pl, 'th')}`,
        'zh-Hans': `${placeName(pl, 'zh-Hans')}${t.title['zh-Hans']}`,
      };
      return {
        ...base,
        title: texts(rng, original, (l) => title[l]),
        description: describe(rng, original, title, pl),
        price: {
          ...priceFor(rng, rng.int(200, 6000)),
          unit: t.vehicle === 'van' || t.vehicle === 'boat' ? 'trip' : 'day',
        },
        categories: [t.code],
        amenities: [],
        transport: {
          vehicle_kind: t.vehicle,
          transmission: t.vehicle === 'car' && rng.chance(0.3) ? 'manual' : 'automatic',
          seats: rng.int(t.seats[0], t.seats[1]),
        },
      };
    }
    case 'food': {
      const f = rng.pick(FOOD);
      const title: L4 = {
        en: `${f.title.en}, ${pl.name.en}`,
        ru: `${f.title.ru}, ${placeName(pl, 'ru')}`,
        th: `${f.title.th} ${placeName(pl, 'th')}`,
        'zh-Hans': `${placeName(pl, 'zh-Hans')}${f.title['zh-Hans']}`,
      };
      return {
        ...base,
        title: texts(rng, original, (l) => title[l]),
        description: describe(rng, original, title, pl),
        price: { ...priceFor(rng, rng.int(60, 1500)), unit: 'item' },
        categories: [f.code],
        amenities: [],
        food: {
          format: f.format,
          diets: f.code === 'vegan_food' ? ['vegan', 'vegetarian'] : rng.some(DIETS, 0.25),
          alcohol: f.format === 'bar' || (f.format === 'restaurant' && rng.chance(0.6)),
        },
      };
    }
  }
}

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const hhmm = (m: number) => `${String(Math.floor(m / 60) % 24).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

function eventRecord(rng: Rng, n: number, opts: DemoOptions, leaves: Array<[DemoPlace, number]>): CatalogRecordInput {
  const cat = rng.pick(EVENT_CATEGORIES);
  const pl = weighted(rng, leaves);
  const original = weighted(rng, ORIGINAL_LANG);
  // No beach parties in Chiang Mai: beach titles only where there is a beach.
  const fitting = cat.titles.filter((x) => pl.beach || !/beach/i.test(x.en));
  const t = rng.pick(fitting.length ? fitting : cat.titles);
  const title: L4 = {
    en: `${t.en} in ${pl.name.en}`,
    ru: `${t.ru}: ${placeName(pl, 'ru')}`,
    th: `${t.th} ${placeName(pl, 'th')}`,
    'zh-Hans': `${placeName(pl, 'zh-Hans')}${t['zh-Hans']}`,
  };
  // Night events start late and often end after midnight; the rest spread over the day.
  const start = cat.night ? rng.int(20, 23) * 60 + rng.pick([0, 30]) : rng.int(6, 20) * 60 + rng.pick([0, 30]);
  const end = start + rng.pick(cat.night ? [180, 240, 300] : [60, 90, 120, 180]);
  const slot = { start: hhmm(start), end: hhmm(end) };
  const schedule = [];
  if (rng.chance(0.5)) {
    const from = addDays(opts.today, -rng.int(0, 60));
    const until = addDays(opts.today, rng.int(30, 260));
    const days = rng.some(WEEKDAYS, 0.35);
    schedule.push({
      weekly: { days: days.length ? days : [rng.pick(WEEKDAYS)], ...slot, from, until },
      except: Array.from({ length: rng.int(0, 2) }, () => addDays(opts.today, rng.int(1, 90))).filter(
        (d, i, a) => a.indexOf(d) === i,
      ),
    });
  }
  for (let i = rng.int(schedule.length ? 0 : 1, 3); i > 0; i--) {
    schedule.push({ date: addDays(opts.today, rng.int(0, 175)), ...slot });
  }
  const paid = rng.chance(0.6);
  return {
    type: 'event',
    external_id: `DEMO-E-${String(n).padStart(5, '0')}`,
    slug: `${title.en
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')}-${n}`,
    status: rng.chance(0.95) ? 'published' : 'draft',
    title: texts(rng, original, (l) => title[l]),
    description: describe(rng, original, title, pl),
    original_lang: original,
    category: cat.code,
    place: `DEMO-P-${pl.key}`,
    venue: {
      name: texts(rng, 'en', (l) => `${cat.name[l]} · ${placeName(pl, l)}`),
      lat: Number((pl.lat + (rng.next() - 0.5) * 0.01).toFixed(5)),
      lon: Number((pl.lon + (rng.next() - 0.5) * 0.01).toFixed(5)),
    },
    timezone: 'Asia/Bangkok',
    entry: paid ? 'paid' : 'free',
    price: { amount_minor: paid ? rng.int(1, 30) * 10000 : 0, currency: 'THB' },
    audience: cat.code === 'kids' ? 'family' : cat.night ? 'adults' : rng.pick(['family', 'adults'] as const),
    crowd: rng.pick(['intimate', 'small', 'medium', 'large'] as const),
    event_lang: rng.pick(['en', 'ru', 'th', 'zh-Hans', 'multi'] as const),
    schedule,
  };
}

/**
 * The demo catalog as catalog records (the same format `catalog import` reads), deterministic
 * for a given seed and start day. Streams: 100,000 listings never sit in memory at once.
 */
export function* generateDemoCatalog(opts: DemoOptions): Generator<CatalogRecordInput> {
  yield* referenceRecords(opts);
  const leaves = THAILAND.filter((pl) => pl.weight).map((pl) => [pl, pl.weight!] as [DemoPlace, number]);
  const rng = prng(opts.seed);
  for (let n = 1; n <= opts.listings; n++) yield listingRecord(rng, n, opts, leaves);
  const erng = prng(opts.seed ^ 0x5eed);
  for (let n = 1; n <= opts.events; n++) yield eventRecord(erng, n, opts, leaves);
}

export function demoRecordCount(opts: Pick<DemoOptions, 'listings' | 'events'>): number {
  return (
    opts.listings +
    opts.events +
    CURRENCIES.length +
    1 +
    EXPERIENCES.length +
    SERVICES.length +
    TRANSPORT.length +
    FOOD.length +
    EVENT_CATEGORIES.length +
    AMENITIES.length +
    THAILAND.length
  );
}
