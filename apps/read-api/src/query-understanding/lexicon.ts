import { fold, isHan, isUnspaced, keyOf, nameKeys, stem, thaiBare, typoAllowed, words } from './text.ts';
import { soundKey } from './sound.ts';

/**
 * What query understanding knows: every place by all its names (the four languages, plus the
 * aliases of mappings/place-aliases.json), the words that name a category, an amenity or a
 * property type (the catalog's names and the concepts of mappings/intents.json), the intents of
 * mappings/intents.json, and the synonyms, generic and stop words of mappings/synonyms.json.
 * Built in memory from the places index and the catalog tables; pure, so it is unit-tested
 * without services.
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
  /** Listing kinds it concerns: a category's kind, an amenity's kinds. */
  kinds?: string[];
}

export interface PlaceAliases {
  [slug: string]: Partial<Record<string, string[]>>;
}

export interface SynonymData {
  groups: Record<string, string[][]>;
  generic: Record<string, string[]>;
  stop: Record<string, string[]>;
  /** Words that name something specific (golf, a helicopter, Songkran): always required. */
  specific?: Record<string, string[]>;
}

export type PhrasesByLanguage = Partial<Record<string, string[]>>;
/** Filter parameters of the search routes, by listing kind (`*`: every kind). */
export type KindFilters = Record<string, Record<string, unknown>>;

/** What an intent stands for (mappings/intents.json). */
export interface IntentEffect {
  /** The listing kind it asks for. */
  kind?: string;
  /** The kind it means when nothing else in the query names one ("tour": experiences; "boat tour": a boat). */
  defaultKind?: string;
  /** Listing filters, per kind (the first kind is the one meant when the query names none). */
  listings?: KindFilters;
  /** With `keep`, kinds the filters do not concern are kept as they are. */
  others?: 'keep';
  /** Listing filters that rank (never filter). */
  boost?: KindFilters;
  /** Events filters: `entry`, `time`, `audience`, and `day` (`today`, `tomorrow`, `weekend`, `week`). */
  events?: Record<string, string>;
  /** An order of the answer (price_asc, price_desc, rating). */
  rank?: 'price_asc' | 'price_desc' | 'rating';
  /** The guest's own position: distances from `near` when the client sends it. */
  near?: boolean;
  /** Codes it names as well ("party villa" is a villa): each a word of the query that selects by its code. */
  codes?: VocabularyHit[];
  /** A need, not a preference: the related listings keep its filter too (pets, parties, a diet). */
  hard?: boolean;
}

export interface IntentSpec extends IntentEffect {
  phrases: PhrasesByLanguage;
}

export interface PatternSpec extends Omit<IntentEffect, 'kind'> {
  /** Regular expression over the folded query; `$1` in filter values is its number. */
  re: string;
}

export interface IntentData {
  concepts: Partial<Record<VocabularyHit['field'], Record<string, PhrasesByLanguage>>>;
  intents: Record<string, IntentSpec>;
  numbers: Record<string, Record<string, number>>;
  patterns: PatternSpec[];
  /** Codes a guest takes for one another (an apartment for a condo): they rank first among related listings. */
  siblings?: Partial<Record<VocabularyHit['field'], Record<string, string[]>>>;
}

/** mappings/places-elsewhere.json: names of destinations the catalog does not serve, by language. */
export type ElsewhereData = Partial<Record<string, string[]>>;

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
  /** Sound key (sound.ts) of a Chinese place name → places: homophones and variant characters. */
  placeSounds: Map<string, number[]>;
  /** Sound key of a Chinese word of the vocabulary or the intents → that word (民俗 sounds as 民宿). */
  wordSounds: Map<string, string>;
  /** Single words of the vocabulary and the intents a typo may be forgiven in (Latin and Cyrillic). */
  typoWords: string[];
  /** The Thai words of the same, with their bare form (`thaiBare`) to compare typos with. */
  thaiTypoWords: Array<{ word: string; bare: string }>;
  /** Thai and Chinese names without spaces, longest first: looked for inside unspaced runs (`elsewhere`: a destination the catalog does not serve). */
  unspacedPlaceNames: Array<{ name: string; ids: number[]; elsewhere?: boolean }>;
  /** Comparison key → a destination the catalog does not serve (places-elsewhere.json), never a place of its own. */
  elsewhere: Set<string>;
  /** Thai and Chinese words and phrases of every list below, longest first: cut out of unspaced runs too. */
  unspacedWords: string[];
  /** The same words by their first letter (a Thai word never starts with a tone mark). */
  wordsByFirst: Map<string, string[]>;
  vocabulary: Map<string, VocabularyHit[]>;
  /** Kinds a category or amenity concerns (`category:diving` → experience). */
  codeKinds: Map<string, string[]>;
  /** `field:code` → the codes a guest takes for it (intents.json `siblings`). */
  siblings: Map<string, VocabularyHit[]>;
  intents: Map<string, Array<{ id: string; effect: IntentEffect }>>;
  patterns: Array<{ re: RegExp; effect: PatternSpec }>;
  /** Number words → numbers (two → 2, две → 2, 两 → 2). */
  numbers: Map<string, number>;
  /** Key → the other members of its synonym groups. */
  synonyms: Map<string, string[]>;
  generic: Set<string>;
  stop: Set<string>;
  /** Words that name something specific the guest wants: never relaxed (synonyms.json `specific`). */
  specific: Set<string>;
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

const phrasesOf = (p: PhrasesByLanguage) => Object.values(p).flatMap((l) => l ?? []);

export const NO_INTENTS: IntentData = { concepts: {}, intents: {}, numbers: {}, patterns: [] };

export function buildLexicon(input: {
  places: PlaceInput[];
  categories: NamedCode[];
  amenities: NamedCode[];
  aliases: PlaceAliases;
  synonyms: SynonymData;
  intents?: IntentData;
  elsewhere?: ElsewhereData;
}): Lexicon {
  const intentData = input.intents ?? NO_INTENTS;
  const places = new Map<number, LexiconPlace>();
  const placeKeys = new Map<string, number[]>();
  const placeSounds = new Map<string, number[]>();
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
      if (isHan(compact) && [...compact].length >= 2) {
        const sound = soundKey(compact);
        if (sound) addTo(placeSounds, sound, p.id);
      }
    }
  }

  const elsewhere = new Set<string>();
  const unspacedElsewhere = new Set<string>();
  for (const n of Object.values(input.elsewhere ?? {}).flatMap((l) => l ?? [])) {
    for (const k of nameKeys(n)) if (!placeKeys.has(k)) elsewhere.add(k);
    const compact = words(n).join('');
    // Cut out of a longer run only when long enough not to be part of another word.
    if (isUnspaced(compact) && [...compact].length >= (isHan(compact) ? 2 : 4) && !unspaced.has(compact)) {
      unspacedElsewhere.add(compact);
    }
  }

  const stop = new Set(Object.values(input.synonyms.stop ?? {}).flatMap((l) => l.map((w) => keyOf(words(w)))));
  const generic = new Set(Object.values(input.synonyms.generic).flatMap((l) => l.map((w) => keyOf(words(w)))));
  const specific = new Set<string>();
  for (const w of Object.values(input.synonyms.specific ?? {}).flatMap((l) => l)) {
    const ws = words(w);
    if (!ws.length) continue;
    maxWords = Math.max(maxWords, ws.length);
    specific.add(keyOf(ws));
  }

  // Intents first: a phrase that is an intent is never read as a name ("kids" is the children
  // intent, not the event category For kids).
  const intents = new Map<string, Array<{ id: string; effect: IntentEffect }>>();
  for (const [id, spec] of Object.entries(intentData.intents)) {
    const { phrases, ...effect } = spec;
    for (const phrase of phrasesOf(phrases)) {
      const ws = words(phrase);
      if (!ws.length) continue;
      maxWords = Math.max(maxWords, ws.length);
      for (const k of nameKeys(phrase)) addTo(intents, k, { id, effect }, (a, b) => a.id === b.id);
    }
  }

  const vocabulary = new Map<string, VocabularyHit[]>();
  const codeKinds = new Map<string, string[]>();
  const same = (a: VocabularyHit, b: VocabularyHit) => a.field === b.field && a.code === b.code;
  // Codes the concepts of intents.json describe: their words are curated, so the catalog's names
  // add only themselves (no single word of a longer name: "Muay Thai" does not make "thai" a category).
  const curated = new Set<string>();
  for (const [field, byCode] of Object.entries(intentData.concepts) as Array<
    [VocabularyHit['field'], Record<string, PhrasesByLanguage>]
  >) {
    for (const [code, phrases] of Object.entries(byCode)) {
      curated.add(`${field}:${code}`);
      for (const phrase of phrasesOf(phrases)) {
        const ws = words(phrase);
        if (!ws.length) continue;
        maxWords = Math.max(maxWords, ws.length);
        for (const k of nameKeys(phrase)) if (!intents.has(k)) addTo(vocabulary, k, { field, code }, same);
      }
    }
  }
  const addName = (name: string, hit: VocabularyHit) => {
    const ws = words(name);
    if (!ws.length) return;
    maxWords = Math.max(maxWords, ws.length);
    for (const k of nameKeys(name)) if (!intents.has(k)) addTo(vocabulary, k, hit, same);
    // A word of a longer name stands for it too ("boat" for "Boat charter"), unless it is generic
    // or the code's words are curated.
    if (ws.length > 1 && !curated.has(`${hit.field}:${hit.code}`)) {
      for (const w of ws) {
        const k = stem(w);
        if ([...w].length >= 3 && !generic.has(k) && !stop.has(k) && !intents.has(k)) addTo(vocabulary, k, hit, same);
      }
    }
  };
  for (const c of input.categories) {
    if (c.kinds) codeKinds.set(`category:${c.code}`, c.kinds);
    for (const n of Object.values(c.name)) if (n) addName(n, { field: 'category', code: c.code });
  }
  for (const a of input.amenities) {
    if (a.kinds) codeKinds.set(`amenity:${a.code}`, a.kinds);
    for (const n of Object.values(a.name)) if (n) addName(n, { field: 'amenity', code: a.code });
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

  const siblings = new Map<string, VocabularyHit[]>();
  for (const [field, byCode] of Object.entries(intentData.siblings ?? {}) as Array<
    [VocabularyHit['field'], Record<string, string[] | string>]
  >) {
    for (const [code, others] of Object.entries(byCode)) {
      if (Array.isArray(others))
        siblings.set(
          `${field}:${code}`,
          others.map((o) => ({ field, code: o })),
        );
    }
  }

  const patterns = intentData.patterns.map((p) => ({ re: new RegExp(p.re, 'gu'), effect: p }));
  const numbers = new Map<string, number>();
  for (const byWord of Object.values(intentData.numbers))
    for (const [w, n] of Object.entries(byWord)) numbers.set(fold(w), n);

  // One Han character is too short to cut out of a run, except a stop word (的, 在): it is a word of its own.
  const unspacedWords = [
    ...new Set([...vocabulary.keys(), ...synonyms.keys(), ...generic, ...intents.keys(), ...stop, ...specific]),
  ]
    .filter((k) => !k.includes(' ') && isUnspaced(k) && (longEnoughInside(k) || (isHan(k) && stop.has(k))))
    .sort((a, b) => [...b].length - [...a].length || a.localeCompare(b));
  // For cutting runs into words: the words above, and the short Thai and Chinese names too short
  // to look for inside a run on their own (ปาย), which only count where the rest are words.
  const wordsByFirst = new Map<string, string[]>();
  const shortNames = [...placeKeys.keys(), ...elsewhere].filter((k) => !k.includes(' ') && isUnspaced(k));
  for (const w of new Set([...unspacedWords, ...shortNames])) addTo(wordsByFirst, w[0]!, w);
  // Every word the lexicon reads as something: a typo of an event's or a synonym's word ("夜事"
  // for 夜市, "валейбол") is as likely as one of a category's.
  const knownWords = [...intents.keys(), ...vocabulary.keys(), ...synonyms.keys(), ...specific];
  const wordSounds = new Map<string, string>();
  for (const k of knownWords) {
    if (!isHan(k) || [...k].length < 2) continue;
    const sound = soundKey(k);
    if (sound && !wordSounds.has(sound)) wordSounds.set(sound, k);
  }
  const typoWords = [...new Set(knownWords)].filter((k) => !k.includes(' ') && !isUnspaced(k) && typoAllowed(k));
  const thaiTypoWords = [...new Set(knownWords)]
    .filter((k) => !k.includes(' ') && isUnspaced(k) && !isHan(k))
    .map((word) => ({ word, bare: thaiBare(word) }))
    .filter((w) => [...w.bare].length >= 3);
  const unspacedPlaceNames = [
    ...[...unspaced.entries()].map(([name, ids]) => ({ name, ids })),
    ...[...unspacedElsewhere].map((name) => ({ name, ids: [] as number[], elsewhere: true })),
  ].sort((a, b) => [...b.name].length - [...a.name].length || a.name.localeCompare(b.name));
  return {
    places,
    placeKeys,
    placeSounds,
    wordSounds,
    typoWords,
    thaiTypoWords,
    unspacedPlaceNames,
    elsewhere,
    unspacedWords,
    wordsByFirst,
    vocabulary,
    codeKinds,
    siblings,
    intents,
    patterns,
    numbers,
    synonyms,
    generic,
    stop,
    specific,
    maxWords: Math.min(maxWords, 6),
  };
}
