import { fold, isHan, isUnspaced, keyOf, nameKeys, stem, words } from './text.ts';

/**
 * What query understanding knows: every place by all its names (the four languages, plus the
 * aliases of mappings/place-aliases.json), the category and amenity names, the property types and
 * the synonyms and generic words of mappings/synonyms.json. Built in memory from the places index
 * and the catalog tables; pure, so it is unit-tested without services.
 */

export type Names = Partial<Record<string, string>>;

export interface PlaceInput {
  id: number;
  slug: string;
  level: string;
  popular: boolean;
  /** The place and its ancestors, from the country down. */
  pathIds: number[];
  name: Names;
}

export interface NamedCode {
  code: string;
  name: Names;
}

export interface PlaceAliases {
  [slug: string]: Partial<Record<string, string[]>>;
}

export interface SynonymData {
  groups: Record<string, string[][]>;
  generic: Record<string, string[]>;
  property_types: Record<string, string[] | string>;
}

export interface LexiconPlace {
  id: number;
  slug: string;
  level: string;
  popular: boolean;
  pathIds: number[];
  name: Names;
  /** Every name, folded. */
  forms: NameForm[];
  /** The aliases the same way (a prefix of a name ranks above a prefix of an alias). */
  aliasForms: NameForm[];
}

/**
 * A folded name in the three shapes a guest's prefix is compared with, made once with the
 * lexicon: suggest compares every keystroke with every place's names.
 */
export interface NameForm {
  /** Words joined by one space. */
  spaced: string;
  /** Words joined without a space. */
  compact: string;
  words: string[];
}

/** Where a vocabulary word points in the listings and events documents. */
export interface VocabularyHit {
  field: 'category' | 'amenity' | 'property_type';
  code: string;
}

export interface Lexicon {
  places: Map<number, LexiconPlace>;
  /** Comparison key (text.ts `keyOf`) → places known by it. */
  placeKeys: Map<string, number[]>;
  /** Thai and Chinese names without spaces, longest first: looked for inside unspaced runs. */
  unspacedPlaceNames: Array<{ name: string; ids: number[] }>;
  /** Thai and Chinese words of the vocabulary, synonyms and generic words, longest first: cut out of unspaced runs too. */
  unspacedWords: string[];
  vocabulary: Map<string, VocabularyHit[]>;
  /** Key → the other members of its synonym groups. */
  synonyms: Map<string, string[]>;
  generic: Set<string>;
  /** The most words a known name or phrase has. */
  maxWords: number;
}

const addTo = <K, V>(m: Map<K, V[]>, k: K, v: V, same: (a: V, b: V) => boolean = (a, b) => a === b) => {
  const list = m.get(k);
  if (!list) m.set(k, [v]);
  else if (!list.some((x) => same(x, v))) list.push(v);
};

/** Shortest unspaced name looked for inside a longer run: one Han syllable or a short Thai word is in too many. */
function longEnoughInside(name: string): boolean {
  return [...name].length >= (isHan(name) ? 2 : 3);
}

export function buildLexicon(input: {
  places: PlaceInput[];
  categories: NamedCode[];
  amenities: NamedCode[];
  aliases: PlaceAliases;
  synonyms: SynonymData;
}): Lexicon {
  const places = new Map<number, LexiconPlace>();
  const placeKeys = new Map<string, number[]>();
  const unspaced = new Map<string, number[]>();
  let maxWords = 1;
  for (const p of input.places) {
    // By slug, or by the English name as a slug (catalogs spell slugs their own way: samui, koh-samui).
    const alias = input.aliases[p.slug] ?? input.aliases[words(p.name.en ?? '').join('-')] ?? {};
    const own = Object.values(p.name).filter((n): n is string => Boolean(n));
    const others = [...Object.values(alias).flatMap((l) => l ?? []), p.slug.replace(/-/g, ' ')];
    const all = [...own, ...others];
    const formsOf = (ns: string[]): NameForm[] =>
      [...new Set(ns.map((n) => words(n).join(' ')).filter(Boolean))].map((spaced) => ({
        spaced,
        compact: spaced.replace(/ /g, ''),
        words: spaced.split(' '),
      }));
    places.set(p.id, { ...p, forms: formsOf(own), aliasForms: formsOf(others) });
    for (const n of all) {
      maxWords = Math.max(maxWords, words(n).length);
      for (const k of nameKeys(n)) addTo(placeKeys, k, p.id);
      const compact = words(n).join('');
      if (isUnspaced(compact) && longEnoughInside(compact)) addTo(unspaced, compact, p.id);
    }
  }

  const vocabulary = new Map<string, VocabularyHit[]>();
  const same = (a: VocabularyHit, b: VocabularyHit) => a.field === b.field && a.code === b.code;
  const generic = new Set(Object.values(input.synonyms.generic).flatMap((l) => l.map((w) => keyOf(words(w)))));
  const addVocabulary = (name: string, hit: VocabularyHit) => {
    const ws = words(name);
    if (!ws.length) return;
    maxWords = Math.max(maxWords, ws.length);
    for (const k of nameKeys(name)) addTo(vocabulary, k, hit, same);
    // A word of a longer name stands for it too ("boat" for "Boat charter"), unless it is generic.
    if (ws.length > 1) {
      for (const w of ws) {
        const k = stem(w);
        if ([...w].length >= 3 && !generic.has(k)) addTo(vocabulary, k, hit, same);
      }
    }
  };
  for (const c of input.categories)
    for (const n of Object.values(c.name)) if (n) addVocabulary(n, { field: 'category', code: c.code });
  for (const a of input.amenities)
    for (const n of Object.values(a.name)) if (n) addVocabulary(n, { field: 'amenity', code: a.code });
  for (const [code, names] of Object.entries(input.synonyms.property_types)) {
    if (!Array.isArray(names)) continue; // _comment
    for (const n of names) for (const k of nameKeys(n)) addTo(vocabulary, k, { field: 'property_type', code }, same);
  }

  const synonyms = new Map<string, string[]>();
  for (const groups of Object.values(input.synonyms.groups)) {
    for (const group of groups) {
      for (const member of group) {
        const ws = words(member);
        maxWords = Math.max(maxWords, ws.length);
        const k = keyOf(ws);
        for (const other of group) if (other !== member) addTo(synonyms, k, fold(other));
      }
    }
  }

  const unspacedWords = [...new Set([...vocabulary.keys(), ...synonyms.keys(), ...generic])]
    .filter((k) => !k.includes(' ') && isUnspaced(k) && longEnoughInside(k))
    .sort((a, b) => [...b].length - [...a].length || a.localeCompare(b));
  const unspacedPlaceNames = [...unspaced.entries()]
    .map(([name, ids]) => ({ name, ids }))
    .sort((a, b) => [...b.name].length - [...a.name].length || a.name.localeCompare(b.name));
  return {
    places,
    placeKeys,
    unspacedPlaceNames,
    unspacedWords,
    vocabulary,
    synonyms,
    generic,
    maxWords: Math.min(maxWords, 5),
  };
}
