/**
 * The catalog's own facts and the predicate language of the judgments (README.md): a guest's
 * intent written over facts, graded here, never from an engine's answer. Pure: records in,
 * grades out.
 */

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Rec = Record<string, Json>;

export type Predicate =
  | { all: Predicate[] }
  | { any: Predicate[] }
  | { not: Predicate }
  | { kind: string | string[] }
  | { place: string | string[] }
  | { category: string | string[] }
  | { amenity: string | string[] }
  | { property_type: string | string[] }
  | { title_has: string }
  | { true: true }
  | ({ field: string } & (
      | { eq: Json }
      | { lte: number }
      | { gte: number }
      | { lt: number }
      | { gt: number }
      | { in: Json[] }
      | { has: Json }
    ));

/** One published listing or event, as the predicates see it. */
export interface Fact {
  externalId: string;
  /** `event` for events. */
  kind: string;
  /** Slugs of the record's place and every place above it. */
  places: Set<string>;
  categories: string[];
  amenities: string[];
  propertyType: string | null;
  titles: string[];
  /** Catalog record fields plus the derived `price_thb` and, for events, `time_of_day` (a list). */
  record: Rec;
}

export interface Catalog {
  listings: Fact[];
  events: Fact[];
}

/** Minutes → the time of day of the events API (05:00–11:59 morning, 12:00–16:59 day, else evening). */
function timeOfDay(hhmm: string): string {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  const minute = h * 60 + m;
  if (minute >= 300 && minute < 720) return 'morning';
  if (minute >= 720 && minute < 1020) return 'day';
  return 'evening';
}

/** The facts of the published listings and events of a catalog (NDJSON records). */
export function catalogFacts(records: Rec[]): Catalog {
  const places = new Map<string, Rec>();
  for (const r of records) if (r.type === 'place') places.set(r.external_id as string, r);
  const pathOf = (placeId: string): Set<string> => {
    const out = new Set<string>();
    for (let p = places.get(placeId); p; p = p.parent ? places.get(p.parent as string) : undefined) {
      out.add(p.slug as string);
    }
    return out;
  };
  const fx = records.find((r) => r.type === 'fx_rate');
  const rates = ((fx?.rates ?? {}) as Record<string, number>) ?? {};
  const thb = (price: Rec | undefined): number | null => {
    if (!price) return null;
    const major = (price.amount_minor as number) / 100;
    if (price.currency === 'THB') return major;
    const rate = rates[price.currency as string];
    return rate ? major / rate : null;
  };
  const titles = (r: Rec) => Object.values((r.title ?? {}) as Record<string, string>);
  const listings: Fact[] = [];
  const events: Fact[] = [];
  for (const r of records) {
    if (r.status !== 'published') continue;
    if (r.type === 'listing') {
      listings.push({
        externalId: r.external_id as string,
        kind: r.kind as string,
        places: pathOf(r.place as string),
        categories: (r.categories ?? []) as string[],
        amenities: (r.amenities ?? []) as string[],
        propertyType: ((r.stay as Rec | undefined)?.property_type as string | undefined) ?? null,
        titles: titles(r),
        record: { ...r, price_thb: thb(r.price as Rec | undefined) },
      });
    } else if (r.type === 'event') {
      const starts = ((r.schedule ?? []) as Rec[]).map(
        (s) => ((s.weekly as Rec | undefined)?.start ?? s.start) as string,
      );
      events.push({
        externalId: r.external_id as string,
        kind: 'event',
        places: pathOf(r.place as string),
        categories: [r.category as string],
        amenities: [],
        propertyType: null,
        titles: titles(r),
        record: { ...r, price_thb: thb(r.price as Rec | undefined), time_of_day: [...new Set(starts.map(timeOfDay))] },
      });
    }
  }
  return { listings, events };
}

const list = (v: string | string[]) => (Array.isArray(v) ? v : [v]);

function factAt(f: Fact, path: string): Json | undefined {
  let v: Json | undefined = f.record;
  for (const part of path.split('.')) {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
    v = (v as Record<string, Json>)[part];
  }
  return v;
}

/** Whether a fact satisfies a predicate; an unknown predicate form is an error in the judgments. */
export function holds(p: Predicate, f: Fact): boolean {
  if ('all' in p) return p.all.every((x) => holds(x, f));
  if ('any' in p) return p.any.some((x) => holds(x, f));
  if ('not' in p) return !holds(p.not, f);
  if ('kind' in p) return list(p.kind).includes(f.kind);
  if ('place' in p) return list(p.place).some((s) => f.places.has(s));
  if ('category' in p) return list(p.category).some((c) => f.categories.includes(c));
  if ('amenity' in p) return list(p.amenity).every((a) => f.amenities.includes(a));
  if ('property_type' in p) return f.propertyType !== null && list(p.property_type).includes(f.propertyType);
  if ('title_has' in p) {
    const needle = p.title_has.toLowerCase();
    return f.titles.some((t) => t.toLowerCase().includes(needle));
  }
  if ('true' in p) return true;
  if ('field' in p) {
    const v = factAt(f, p.field);
    if ('eq' in p) {
      const want = JSON.stringify(p.eq);
      const same = (x: Json | undefined) => JSON.stringify(x) === want;
      // A fact with several values (an event's times of day) equals v when one of them does.
      return same(v) || (Array.isArray(v) && !Array.isArray(p.eq) && v.some(same));
    }
    if ('in' in p) return p.in.some((x) => JSON.stringify(x) === JSON.stringify(v));
    if ('has' in p) return Array.isArray(v) && v.some((x) => JSON.stringify(x) === JSON.stringify(p.has));
    if (typeof v !== 'number') return false;
    if ('lte' in p) return v <= p.lte;
    if ('gte' in p) return v >= p.gte;
    if ('lt' in p) return v < p.lt;
    if ('gt' in p) return v > p.gt;
  }
  throw new Error(`unknown predicate ${JSON.stringify(p)}`);
}

/** external_id → grade (2 = what the guest asked for, 1 = acceptable) of the records graded at all. */
export function grade(facts: Fact[], grade2: Predicate, grade1?: Predicate): Map<string, number> {
  const out = new Map<string, number>();
  for (const f of facts) {
    if (holds(grade2, f)) out.set(f.externalId, 2);
    else if (grade1 && holds(grade1, f)) out.set(f.externalId, 1);
  }
  return out;
}
