import type { CatalogRecord } from '@guest/catalog';
import type { DeclaredKeys, ParsedLine } from './parse-ndjson.ts';

/** What the catalog already holds, so a file may refer to records imported earlier. */
export interface KnownKeys {
  places: Map<string, string>; // external_id -> level
  categories: Map<string, string>; // code -> kind
  amenities: Set<string>;
  currencies: Set<string>;
}

export const LEVEL_RANK: Record<string, number> = { country: 0, region: 1, district: 2, area: 3 };

const NONE: DeclaredKeys = { places: new Set(), categories: new Set(), amenities: new Set(), currencies: new Set() };

/**
 * Every reference must resolve to a record in the same file (earlier or later) or in the
 * catalog; a child place must sit below its parent. Reports `line N: reason` per problem.
 * A reference to a key that a bad line of the file declares (`onBadLines`) is not checked: that
 * line is reported already, and this one is fine once it is fixed.
 */
export function checkReferences(lines: ParsedLine[], known: KnownKeys, onBadLines: DeclaredKeys = NONE): string[] {
  const places = new Map(known.places);
  const categories = new Map(known.categories);
  const amenities = new Set(known.amenities);
  const currencies = new Set(known.currencies);
  for (const { record: r } of lines) {
    if (r.type === 'place') places.set(r.external_id, r.level);
    else if (r.type === 'category') categories.set(r.code, r.kind);
    else if (r.type === 'amenity') amenities.add(r.code);
    else if (r.type === 'currency') currencies.add(r.code);
  }
  const errors: string[] = [];
  // Slugs are addresses: two records of one kind in one file may not share one.
  const slugs = new Map<string, number>();
  for (const { line, record: r } of lines) {
    if (r.type !== 'place' && r.type !== 'event') continue;
    const key = `${r.type}:${r.slug}`;
    const first = slugs.get(key);
    if (first !== undefined)
      errors.push(`line ${line}: slug: "${r.slug}" is already used by the ${r.type} on line ${first}`);
    else slugs.set(key, line);
  }
  const need = (line: number, ok: boolean, reason: string) => {
    if (!ok) errors.push(`line ${line}: ${reason}`);
  };
  const currencyOk = (line: number, code: string, field: string) =>
    need(
      line,
      currencies.has(code) || onBadLines.currencies.has(code),
      `${field}: currency "${code}" is not in the file or the catalog`,
    );
  for (const { line, record: r } of lines) {
    switch (r.type) {
      case 'place':
        if (r.parent && onBadLines.places.has(r.parent) && !places.has(r.parent)) {
          // Its parent is on a bad line: checked once that line is fixed.
        } else if (r.parent) {
          const parentLevel = places.get(r.parent);
          need(line, parentLevel !== undefined, `parent: place "${r.parent}" is not in the file or the catalog`);
          if (parentLevel !== undefined) {
            need(
              line,
              LEVEL_RANK[parentLevel]! < LEVEL_RANK[r.level]!,
              `parent: a ${r.level} cannot sit under a ${parentLevel}`,
            );
          }
        } else {
          need(line, r.level === 'country', `parent: only a country may have no parent`);
        }
        if (r.currency) currencyOk(line, r.currency, 'currency');
        break;
      case 'listing':
        need(
          line,
          places.has(r.place) || onBadLines.places.has(r.place),
          `place: "${r.place}" is not in the file or the catalog`,
        );
        currencyOk(line, r.price.currency, 'price.currency');
        for (const c of r.categories) {
          const kind = categories.get(c);
          need(
            line,
            kind !== undefined || onBadLines.categories.has(c),
            `categories: "${c}" is not in the file or the catalog`,
          );
          if (kind !== undefined)
            need(line, kind === r.kind, `categories: "${c}" is a ${kind} category, not ${r.kind}`);
        }
        for (const a of r.amenities)
          need(
            line,
            amenities.has(a) || onBadLines.amenities.has(a),
            `amenities: "${a}" is not in the file or the catalog`,
          );
        break;
      case 'event': {
        need(
          line,
          places.has(r.place) || onBadLines.places.has(r.place),
          `place: "${r.place}" is not in the file or the catalog`,
        );
        const kind = categories.get(r.category);
        need(
          line,
          kind !== undefined || onBadLines.categories.has(r.category),
          `category: "${r.category}" is not in the file or the catalog`,
        );
        if (kind !== undefined)
          need(line, kind === 'event', `category: "${r.category}" is a ${kind} category, not an event one`);
        currencyOk(line, r.price.currency, 'price.currency');
        break;
      }
      case 'fx_rate':
        currencyOk(line, r.base, 'base');
        for (const c of Object.keys(r.rates)) currencyOk(line, c, `rates.${c}`);
        break;
      default:
        break;
    }
  }
  return errors;
}

/** Slugs the catalog holds, per kind: slug -> external_id of the record holding it. */
export interface SlugHolders {
  place: Map<string, string>;
  event: Map<string, string>;
}

/**
 * A slug is an address: one held in the catalog by another record is refused on the line that
 * asks for it. Not when the file has that record too: keeping the slug, the two lines are
 * reported by `checkReferences`; moving it elsewhere (a swap), the write itself settles it (and
 * a conflict there is reported by line as well).
 */
export function checkStoredSlugs(lines: ParsedLine[], holders: SlugHolders): string[] {
  const inFile = new Set<string>();
  for (const { record: r } of lines)
    if (r.type === 'place' || r.type === 'event') inFile.add(`${r.type}:${r.external_id}`);
  const errors: string[] = [];
  for (const { line, record: r } of lines) {
    if (r.type !== 'place' && r.type !== 'event') continue;
    const holder = holders[r.type].get(r.slug);
    if (holder === undefined || holder === r.external_id || inFile.has(`${r.type}:${holder}`)) continue;
    errors.push(`line ${line}: slug: "${r.slug}" is already used by the ${r.type} "${holder}" in the catalog`);
  }
  return errors;
}

export function byType<T extends CatalogRecord['type']>(
  lines: ParsedLine[],
  type: T,
): Array<Extract<CatalogRecord, { type: T }>> {
  return lines.filter((l) => l.record.type === type).map((l) => l.record as Extract<CatalogRecord, { type: T }>);
}
