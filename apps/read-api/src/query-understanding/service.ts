import { readFileSync } from 'node:fs';
import path from 'node:path';
import { asc } from 'drizzle-orm';
import { repoRoot } from '@guest/config';
import { schema, type Db } from '@guest/db';
import type { PlaceDocument } from '@guest/catalog';
import type { SearchEngine } from '@guest/search-engine';
import { createTtlCache } from '../ttl-cache.ts';
import {
  buildLexicon,
  type ElsewhereData,
  type IntentData,
  type Lexicon,
  type NamedCode,
  type PlaceAliases,
  type SynonymData,
} from './lexicon.ts';
import { placesByPrefix, understand, type QueryPlan } from './understand.ts';

export interface QueryUnderstandingDeps {
  engine: SearchEngine;
  /** Alias of the places index: the place names are read from it. */
  placesIndex: string;
  /** Category and amenity names come from the catalog tables (they have no index). */
  db: Db;
  /** Seconds the lexicon is held in memory (REFERENCE_LIST_CACHE_TTL_S); 0 rebuilds it for every query. */
  cacheTtlS: number;
}

export type QueryUnderstanding = ReturnType<typeof createQueryUnderstanding>;

const MAPPINGS = path.join(repoRoot, 'mappings');
/** The most places a lexicon holds (the places index is read in one request). */
const MAX_PLACES = 10_000;

/** Aliases, synonyms and intents are data in mappings/: read once per process, changed by a restart, no reindex. */
export function readQueryData(): {
  aliases: PlaceAliases;
  synonyms: SynonymData;
  intents: IntentData;
  elsewhere: ElsewhereData;
} {
  const read = (f: string) => JSON.parse(readFileSync(path.join(MAPPINGS, f), 'utf8')) as Record<string, unknown>;
  const aliases = read('place-aliases.json');
  delete aliases._comment;
  return {
    aliases: aliases as PlaceAliases,
    synonyms: read('synonyms.json') as unknown as SynonymData,
    intents: read('intents.json') as unknown as IntentData,
    elsewhere: read('places-elsewhere.json') as ElsewhereData,
  };
}

/**
 * Query understanding (one module for listings, events, count, map and suggest): a query-time
 * lookup of `q`'s words against every known place name, category, amenity and synonym, held in
 * memory. Chosen over analysis because the place must be selected *exactly* (by id, with what
 * lies below it) rather than by text similarity, because it behaves identically on OpenSearch and
 * Elasticsearch (no analyser differences), and because names, aliases and synonyms change
 * without a reindex. Typo tolerance for places is an edit distance here; for the other words it
 * stays with the engine (fuzzy match).
 */
export function createQueryUnderstanding(deps: QueryUnderstandingDeps) {
  const data = readQueryData();
  const cache = createTtlCache<Lexicon>(deps.cacheTtlS);

  async function load(): Promise<Lexicon> {
    const [placesRes, categories, amenities] = await Promise.all([
      deps.engine.search<Pick<PlaceDocument, 'id' | 'slug' | 'level' | 'popular' | 'path_ids' | 'name'>>(
        deps.placesIndex,
        {
          size: MAX_PLACES,
          _source: ['id', 'slug', 'level', 'popular', 'path_ids', 'name'],
          query: { match_all: {} },
          sort: [{ id: { order: 'asc' } }],
        },
      ),
      deps.db
        .select({ code: schema.categories.code, name: schema.categories.name, kind: schema.categories.kind })
        .from(schema.categories)
        .orderBy(asc(schema.categories.code)),
      deps.db
        .select({ code: schema.amenities.code, name: schema.amenities.name, kinds: schema.amenities.kinds })
        .from(schema.amenities)
        .orderBy(asc(schema.amenities.code)),
    ]);
    return buildLexicon({
      places: placesRes.hits.map(({ _source: p }) => ({
        id: p.id,
        slug: p.slug,
        level: p.level,
        popular: p.popular,
        pathIds: p.path_ids,
        name: p.name,
      })),
      categories: categories.map((c): NamedCode => ({
        code: c.code,
        name: c.name as NamedCode['name'],
        kinds: [c.kind],
      })),
      amenities: amenities.map((a): NamedCode => ({ code: a.code, name: a.name as NamedCode['name'], kinds: a.kinds })),
      ...data,
    });
  }

  const lexicon = () => cache.get('lexicon', load);

  return {
    lexicon,
    /** What `q` asks for; null when there is no `q`. */
    async plan(q: string | undefined): Promise<QueryPlan | null> {
      if (!q) return null;
      return understand(q, await lexicon());
    },
    /** Ids of places whose names start with (or, in Thai and Chinese, hold) what was typed, best first. */
    async placesByPrefix(q: string): Promise<number[]> {
      return placesByPrefix(q, await lexicon());
    },
  };
}
