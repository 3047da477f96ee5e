import { buildLexicon, type Lexicon, type NameForm, type VocabularyHit } from './lexicon.ts';
import { editDistance, isUnspaced, keyOf, stem, typoAllowed, words } from './text.ts';

/**
 * What a `q` asks for: the places it names (selected exactly, with what lies below them) and the
 * other words, each with what else it may be found as (synonyms, categories, amenities, property
 * types). Listings, events, count, map and suggest all read `q` through this one function.
 */
export interface QueryPlan {
  /** Places named in `q`; the search keeps what lies in any of them. An ancestor of another named place is dropped ("Phuket Kata" is Kata). */
  placeIds: number[];
  /** How each place was recognised, for tests and logs. */
  placeMatches: Array<{ text: string; ids: number[]; exact: boolean }>;
  words: PlanWord[];
}

export interface PlanWord {
  /** The word or phrase as typed (folded). */
  text: string;
  /** Other words or phrases it is found as (synonyms). */
  alternatives: string[];
  /** Categories, amenities and property types it names. */
  vocabulary: VocabularyHit[];
  /** Only says what kind of offer is wanted: ranks, never empties an answer. */
  generic: boolean;
}

/** `q` split at spaces and punctuation; a Thai or Chinese run is cut around the place names in it. */
interface Token {
  text: string;
  /** Place ids when this token is (part of) a recognised place name. */
  place?: { ids: number[]; exact: boolean; text: string };
}

/** Cuts place names (longest first) out of a run of Thai or Chinese letters. */
function splitUnspaced(run: string, lex: Lexicon): Token[] {
  for (const { name, ids } of lex.unspacedPlaceNames) {
    const at = run.indexOf(name);
    if (at < 0 || name === run) continue;
    return [
      ...(at > 0 ? splitUnspaced(run.slice(0, at), lex) : []),
      { text: name, place: { ids, exact: true, text: name } },
      ...(at + name.length < run.length ? splitUnspaced(run.slice(at + name.length), lex) : []),
    ];
  }
  return [{ text: run }];
}

/**
 * Cuts known words (vocabulary, synonyms, generic words; longest first) out of a Thai or Chinese
 * run that is not one of them itself: 租摩托车 is 租 (rent) + 摩托车 (scooter), and the engine's
 * dictionary, which knows 出租 but not 租 alone, then finds each.
 */
function splitWords(run: string, lex: Lexicon): string[] {
  if (known(lex, run)) return [run];
  for (const w of lex.unspacedWords) {
    const at = run.indexOf(w);
    if (at < 0 || w === run) continue;
    return [
      ...(at > 0 ? splitWords(run.slice(0, at), lex) : []),
      w,
      ...(at + w.length < run.length ? splitWords(run.slice(at + w.length), lex) : []),
    ];
  }
  return [run];
}

function known(lex: Lexicon, key: string): boolean {
  return lex.vocabulary.has(key) || lex.synonyms.has(key) || lex.generic.has(key);
}

/** Places a word is one typo away from (never when it is a known word of its own). */
function typoPlaces(key: string, lex: Lexicon): number[] {
  if (!typoAllowed(key) || known(lex, key)) return [];
  const ids = new Set<number>();
  for (const [k, placeIds] of lex.placeKeys) {
    if (typoAllowed(k) && editDistance(key, k) <= 1) for (const id of placeIds) ids.add(id);
  }
  return [...ids];
}

export function understand(q: string, lex: Lexicon): QueryPlan {
  const raw = words(q).slice(0, 16);
  const tokens: Token[] = [];
  // 1. Exact names: the longest run of words that is a place name wins.
  for (let i = 0; i < raw.length;) {
    let matched = 0;
    for (let n = Math.min(lex.maxWords, raw.length - i); n >= 1 && !matched; n--) {
      const span = raw.slice(i, i + n);
      const ids = lex.placeKeys.get(keyOf(span)) ?? (n > 1 ? lex.placeKeys.get(stem(span.join(''))) : undefined);
      if (ids) {
        const text = span.join(' ');
        tokens.push({ text, place: { ids, exact: true, text } });
        matched = n;
      }
    }
    if (matched) {
      i += matched;
      continue;
    }
    const w = raw[i]!;
    if (isUnspaced(w)) tokens.push(...splitUnspaced(w, lex));
    else tokens.push({ text: w });
    i++;
  }
  // 2. Words that name nothing exactly may be a place with one letter wrong or swapped
  // ("Chalogn", "Chiang Mia"): the longest run of such words first.
  for (let i = 0; i < tokens.length; i++) {
    for (let n = Math.min(lex.maxWords, tokens.length - i); n >= 1; n--) {
      const span = tokens.slice(i, i + n);
      if (span.some((t) => t.place)) continue;
      const ws = span.map((t) => t.text);
      const ids = typoPlaces(keyOf(ws), lex);
      if (!ids.length) continue;
      const text = ws.join(' ');
      tokens.splice(i, n, { text, place: { ids, exact: false, text } });
      break;
    }
  }
  // 3. The other words: Thai and Chinese runs cut at known words; phrases of the vocabulary and
  // the synonyms, longest first.
  for (let i = tokens.length - 1; i >= 0; i--) {
    const t = tokens[i]!;
    if (t.place || !isUnspaced(t.text)) continue;
    tokens.splice(i, 1, ...splitWords(t.text, lex).map((text) => ({ text })));
  }
  const rest: PlanWord[] = [];
  const placeMatches: QueryPlan['placeMatches'] = [];
  for (let i = 0; i < tokens.length;) {
    const t = tokens[i]!;
    if (t.place) {
      placeMatches.push(t.place);
      i++;
      continue;
    }
    let n = Math.min(lex.maxWords, tokens.length - i);
    for (; n > 1; n--) {
      const span = tokens.slice(i, i + n);
      if (span.some((s) => s.place)) continue;
      const k = keyOf(span.map((s) => s.text));
      if (lex.vocabulary.has(k) || lex.synonyms.has(k)) break;
    }
    const text = tokens
      .slice(i, i + n)
      .map((s) => s.text)
      .join(' ');
    const k = keyOf(text.split(' '));
    rest.push({
      text,
      alternatives: lex.synonyms.get(k) ?? [],
      vocabulary: lex.vocabulary.get(k) ?? [],
      generic: lex.generic.has(k),
    });
    i += n;
  }
  // A query of generic words only ("rental") still means them.
  if (rest.every((w) => w.generic)) for (const w of rest) w.generic = false;
  const named = new Set(placeMatches.flatMap((m) => m.ids));
  const placeIds = [...named].filter(
    (id) => ![...named].some((other) => other !== id && lex.places.get(other)?.pathIds.includes(id)),
  );
  return { placeIds: placeIds.sort((a, b) => a - b), placeMatches, words: rest };
}

/** Levels from the widest: a region is offered before its districts when both fit. */
const LEVEL_ORDER = ['country', 'region', 'district', 'area'];

/**
 * Places whose name (any language, or an alias) starts with what was typed, or has a word that
 * does, or (Thai, Chinese) holds it: "ภูเก" finds ภูเก็ต, "สมุย" finds เกาะสมุย. Best first:
 * the whole name before a word of it, before a part inside; popular, then wider places first.
 */
export function placesByPrefix(q: string, lex: Lexicon): number[] {
  const typed = words(q);
  if (!typed.length) return [];
  const spaced = typed.join(' ');
  const compact = typed.join('');
  // A part inside a name counts only for Thai and Chinese, which write no spaces between words.
  const inside = isUnspaced(compact) && [...compact].length >= 2;
  const ranked: Array<{ id: number; rank: number; popular: number; level: number }> = [];
  for (const p of lex.places.values()) {
    const rank = Math.min(
      formRank(p.forms, spaced, compact, inside),
      0.5 + formRank(p.aliasForms, spaced, compact, inside),
    );
    if (rank < Infinity)
      ranked.push({ id: p.id, rank, popular: p.popular ? 0 : 1, level: LEVEL_ORDER.indexOf(p.level) });
  }
  return ranked
    .sort((a, b) => a.rank - b.rank || a.popular - b.popular || a.level - b.level || a.id - b.id)
    .map((r) => r.id);
}

/** 0 for a name the prefix starts, 1 for one a word of which it starts, 2 for one it is inside of (`inside`). */
function formRank(forms: NameForm[], spaced: string, compact: string, inside: boolean): number {
  let rank = Infinity;
  for (const f of forms) {
    if (f.spaced.startsWith(spaced) || f.compact.startsWith(compact)) return 0;
    if (rank > 1 && f.words.some((w) => w.startsWith(spaced))) rank = 1;
    else if (rank > 2 && inside && f.compact.includes(compact)) rank = 2;
  }
  return rank;
}

const NO_LEXICON = buildLexicon({
  places: [],
  categories: [],
  amenities: [],
  aliases: {},
  synonyms: { groups: {}, generic: {}, property_types: {} },
});

/** The plan the service made with its lexicon, or, for a builder used on its own, `q` as words only. */
export function planOrWords(q: string | undefined, plan: QueryPlan | null | undefined): QueryPlan | null {
  if (!q) return null;
  return plan ?? understand(q, NO_LEXICON);
}
