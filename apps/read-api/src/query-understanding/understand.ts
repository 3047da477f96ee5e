import { buildLexicon, type IntentEffect, type Lexicon, type NameForm, type VocabularyHit } from './lexicon.ts';
import { soundKey, syllables } from './sound.ts';
import { editDistance, isHan, isUnspaced, keyOf, sameThaiSound, stem, thaiBare, typoAllowed, words } from './text.ts';

/**
 * What a `q` asks for: the places it names (selected exactly, with what lies below them), the
 * intents it states (filters, a kind, an order, the guest's position: mappings/intents.json) and
 * the other words, each with what else it may be found as (synonyms, categories, amenities,
 * property types). Listings, events, count, map and suggest all read `q` through this one function.
 */
export interface QueryPlan {
  /** Places named in `q`; the search keeps what lies in any of them. An ancestor of another named place is dropped ("Phuket Kata" is Kata). */
  placeIds: number[];
  /** How each place was recognised, for tests and logs. */
  placeMatches: Array<{ text: string; ids: number[]; exact: boolean }>;
  /** Intents stated in `q`, in the order typed. */
  intents: IntentMatch[];
  words: PlanWord[];
  /** Destinations named in `q` that the catalog does not serve (places-elsewhere.json): the answer is nothing. */
  elsewhere: string[];
  /** For each of `placeIds`: the place above it and its region (null when it is a region or wider): what "nearby" widens to. */
  wider: Array<{ id: number; parent: number | null; region: number | null }>;
}

export interface IntentMatch {
  /** The intent's name in mappings/intents.json (`pattern` for a number pattern). */
  id: string;
  /** The words as typed (folded). */
  text: string;
  effect: IntentEffect;
}

export interface PlanWord {
  /** The word or phrase as typed (folded). */
  text: string;
  /** Other words or phrases it is found as (synonyms). */
  alternatives: string[];
  /** Categories, amenities and property types it names (itself or through a synonym). */
  vocabulary: VocabularyHit[];
  /** Only says what kind of offer is wanted: ranks, never empties an answer. */
  generic: boolean;
  /** Names something specific the guest wants (golf, a helicopter): always required, never relaxed. */
  specific?: boolean;
  /** Listing kinds its vocabulary concerns (a category's kind, an amenity's kinds, stay for a property type). */
  kinds: string[];
  /** Codes a guest takes for those of `vocabulary` (a condo for an apartment): first among related listings. */
  siblings?: VocabularyHit[];
}

/** A word that names nothing the catalog has a code for: matched by text only. */
export const isFreeWord = (w: PlanWord) => !w.generic && w.vocabulary.length === 0;

/** `q` split at spaces and punctuation; a Thai or Chinese run is cut around the place names in it. */
interface Token {
  text: string;
  /** Place ids when this token is (part of) a recognised place name. */
  place?: { ids: number[]; exact: boolean; text: string };
  /** A destination the catalog does not serve. */
  elsewhere?: boolean;
}

/** Thai tone marks: often left out or put wrong when typing (ตืน for ตื้น). */
const THAI_TONES = /[\u0E48-\u0E4B]/gu;
const THAI_TONE = /^[\u0E48-\u0E4B]$/u;

/**
 * Where `word` is in `run`: as written, or, in Thai, with the tone marks of either left out or
 * wrong (ดำน้ำตืน holds ดำน้ำตื้น). Null when it is not there.
 */
function findIn(run: string, word: string): { at: number; end: number } | null {
  const at = run.indexOf(word);
  if (at >= 0) return { at, end: at + word.length };
  if (!/\p{Script=Thai}/u.test(word)) return null;
  const bare = word.replace(THAI_TONES, '');
  // The run without tone marks, and where each of its letters is in the run.
  const positions: number[] = [];
  let stripped = '';
  for (let i = 0; i < run.length; i++) {
    if (THAI_TONE.test(run[i]!)) continue;
    positions.push(i);
    stripped += run[i];
  }
  const s = stripped.indexOf(bare);
  if (s < 0 || !bare) return null;
  let end = positions[s + bare.length - 1]! + 1;
  // A tone mark right after the last letter belongs to it.
  while (end < run.length && THAI_TONE.test(run[end]!)) end++;
  return { at: positions[s]!, end };
}

/** Cuts place names (longest first) out of a run of Thai or Chinese letters. */
function splitUnspaced(run: string, lex: Lexicon): Token[] {
  for (const { name, ids, elsewhere } of lex.unspacedPlaceNames) {
    if (name === run) continue;
    const found = findIn(run, name);
    if (!found) continue;
    return [
      ...(found.at > 0 ? splitUnspaced(run.slice(0, found.at), lex) : []),
      elsewhere ? { text: name, elsewhere: true } : { text: name, place: { ids, exact: true, text: name } },
      ...(found.end < run.length ? splitUnspaced(run.slice(found.end), lex) : []),
    ];
  }
  return [{ text: run }];
}

/**
 * Cuts a Chinese place name written with other characters of the same sound (芭堤雅 for 芭提雅,
 * 布吉 for 普吉) out of a run of Han characters, longest first; never a known word.
 */
function splitBySound(run: string, lex: Lexicon): Token[] {
  if (!isHan(run) || [...run].length < 2 || !lex.placeSounds.size) return [{ text: run }];
  const chars = [...run];
  const syl = syllables(run);
  if (syl.length !== chars.length) return [{ text: run }];
  for (let n = Math.min(chars.length, 6); n >= 2; n--) {
    for (let i = 0; i + n <= chars.length; i++) {
      const text = chars.slice(i, i + n).join('');
      if (known(lex, text)) continue;
      const ids = lex.placeSounds.get(syl.slice(i, i + n).join('-'));
      if (!ids) continue;
      return [
        ...(i > 0 ? splitBySound(chars.slice(0, i).join(''), lex) : []),
        { text, place: { ids, exact: false, text } },
        ...(i + n < chars.length ? splitBySound(chars.slice(i + n).join(''), lex) : []),
      ];
    }
  }
  return [{ text: run }];
}

/** Where `word` starts at `at` in `run` (as written, or in Thai with tone marks left out or wrong): its end, or -1. */
function matchAt(run: string, at: number, word: string): number {
  if (run.startsWith(word, at)) return at + word.length;
  if (!THAI_TONE_IN.test(word) && !THAI_TONE_IN.test(run)) return -1;
  let i = at;
  for (const ch of word) {
    if (THAI_TONE.test(ch)) continue;
    while (i < run.length && THAI_TONE.test(run[i]!)) i++;
    if (run[i] !== ch) return -1;
    i++;
  }
  while (i < run.length && THAI_TONE.test(run[i]!)) i++;
  return i;
}
const THAI_TONE_IN = /[\u0E48-\u0E4B]/u;

/**
 * Cuts a Thai or Chinese run that is not a known word itself into known words (vocabulary,
 * intents, synonyms, generic and stop words) and what is left: 租摩托车 is 租 (rent) + 摩托车
 * (scooter), ที่พักใน is ที่พัก (a place to stay) + ใน (in), ที่พักปาย is ที่พัก + ปาย (a short
 * name). Of all the ways to cut it, the one that leaves the fewest letters unknown, then reads
 * the fewest words with their tone marks wrong, then has the fewest pieces, then names the most
 * things the catalog has a code for: ร้านอาหารทะเล is ร้าน + อาหารทะเล (seafood), not
 * ร้านอาหาร + ทะเล.
 */
function splitWords(run: string, lex: Lexicon): string[] {
  if (known(lex, run)) return [run];
  const n = run.length;
  type Cost = [unknown: number, loose: number, pieces: number, unnamed: number];
  // best[i]: the best cut of run[0, i).
  const best: Array<{ cost: Cost; from: number; word: string | null } | null> = Array(n + 1).fill(null);
  best[0] = { cost: [0, 0, 0, 0], from: 0, word: null };
  const better = (a: Cost, b: Cost) => {
    for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return a[k]! < b[k]!;
    return false;
  };
  const offer = (to: number, cost: Cost, from: number, word: string | null) => {
    const cur = best[to];
    if (!cur || better(cost, cur.cost)) best[to] = { cost, from, word };
  };
  // Chinese typed by sound: a known word written with other characters of the same sound (原生之夜
  // for 原声之夜) is read as that word, as loosely as a Thai word with its tone marks wrong.
  const sounds = isHan(run) && lex.wordSounds.size ? syllables(run) : null;
  const bySound = sounds && sounds.length === n ? sounds : null;
  for (let i = 0; i < n; i++) {
    const here = best[i];
    if (!here) continue;
    const [u, l, p, c] = here.cost;
    if (bySound) {
      for (let len = 2; len <= 6 && i + len <= n; len++) {
        const w = lex.wordSounds.get(bySound.slice(i, i + len).join('-'));
        if (w && w !== run.slice(i, i + len))
          offer(i + len, [u, l + 1, p + 1, c + (lex.vocabulary.has(w) ? 0 : 1)], i, w);
      }
    }
    // A letter left unknown (joined with its unknown neighbours into one piece below).
    const prevUnknown = here.word === null && i > 0;
    offer(i + 1, [u + 1, l, prevUnknown ? p : p + 1, prevUnknown ? c : c + 1], i, null);
    for (const w of lex.wordsByFirst.get(run[i]!) ?? []) {
      const end = matchAt(run, i, w);
      if (end < 0) continue;
      const loose = run.slice(i, end) === w ? 0 : 1;
      offer(end, [u, l + loose, p + 1, c + (lex.vocabulary.has(w) ? 0 : 1)], i, w);
    }
  }
  const pieces: string[] = [];
  let unknown = '';
  for (let i = n; i > 0;) {
    const step = best[i]!;
    if (step.word === null) {
      unknown = run.slice(step.from, i) + unknown;
    } else {
      if (unknown) pieces.unshift(unknown);
      unknown = '';
      pieces.unshift(step.word);
    }
    i = step.from;
  }
  if (unknown) pieces.unshift(unknown);
  return pieces;
}

function known(lex: Lexicon, key: string): boolean {
  return (
    lex.vocabulary.has(key) ||
    lex.intents.has(key) ||
    lex.synonyms.has(key) ||
    lex.generic.has(key) ||
    lex.stop.has(key) ||
    lex.specific.has(key)
  );
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

/** Chinese numerals before a counter (两居室, 三人): written as digits for the patterns. */
const HAN_COUNTED = /([一二两三四五六七八九十])(?=[居卧室房人位座间])/gu;

/** Number patterns (2 bedrooms, на 4 человек, 3 ห้องนอน, 两居室): intents with the number filled in, and what is left of `q`. */
function matchPatterns(text: string, lex: Lexicon): { intents: IntentMatch[]; rest: string } {
  let rest = text
    .split(' ')
    .map((w) => (lex.numbers.has(w) ? String(lex.numbers.get(w)) : w))
    .join(' ')
    .replace(HAN_COUNTED, (c) => String(lex.numbers.get(c) ?? c));
  const intents: IntentMatch[] = [];
  for (const { re, effect } of lex.patterns) {
    rest = rest.replace(re, (match: string, n: string) => {
      const value = Number(n);
      const fill = (byKind: Record<string, Record<string, unknown>> | undefined) =>
        byKind &&
        Object.fromEntries(
          Object.entries(byKind).map(([kind, filters]) => [
            kind,
            Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, v === '$1' ? value : v])),
          ]),
        );
      const { re: _re, ...rest } = effect;
      intents.push({
        id: 'pattern',
        text: match.trim(),
        effect: {
          ...rest,
          ...(rest.listings ? { listings: fill(rest.listings) } : {}),
          ...(rest.boost ? { boost: fill(rest.boost) } : {}),
        },
      });
      return ' ';
    });
  }
  return { intents, rest: rest.replace(/\s+/g, ' ').trim() };
}

export function understand(q: string, lex: Lexicon): QueryPlan {
  const patterned = matchPatterns(words(q).slice(0, 16).join(' '), lex);
  const raw = patterned.rest ? patterned.rest.split(' ') : [];
  const tokens: Token[] = [];
  // 1. Exact names: the longest run of words that is a place name wins.
  for (let i = 0; i < raw.length;) {
    let matched = 0;
    for (let n = Math.min(lex.maxWords, raw.length - i); n >= 1 && !matched; n--) {
      const span = raw.slice(i, i + n);
      const key = keyOf(span);
      // A known phrase of other words is not a place ("Kata beach" is; "near the beach" is not a place "beach").
      const ids = lex.placeKeys.get(key) ?? (n > 1 ? lex.placeKeys.get(stem(span.join(''))) : undefined);
      if (ids) {
        const text = span.join(' ');
        tokens.push({ text, place: { ids, exact: true, text } });
        matched = n;
      } else if (lex.elsewhere.has(key) || (n > 1 && lex.elsewhere.has(stem(span.join(''))))) {
        tokens.push({ text: span.join(' '), elsewhere: true });
        matched = n;
      }
    }
    if (matched) {
      i += matched;
      continue;
    }
    const w = raw[i]!;
    if (isUnspaced(w)) {
      tokens.push(...splitUnspaced(w, lex).flatMap((t) => (t.place || t.elsewhere ? [t] : splitBySound(t.text, lex))));
    } else tokens.push({ text: w });
    i++;
  }
  // 2. The other words: Thai and Chinese runs cut at known words; then the longest phrases of the
  // intents, the vocabulary, the synonyms and the generic and stop words.
  for (let i = tokens.length - 1; i >= 0; i--) {
    const t = tokens[i]!;
    if (t.place || t.elsewhere || !isUnspaced(t.text)) continue;
    // What is left between known words may be a short name of its own (ปาย in ที่พักปาย).
    const pieces = splitWords(t.text, lex).map((text): Token => {
      const ids = known(lex, text) ? undefined : lex.placeKeys.get(text);
      if (ids) return { text, place: { ids, exact: true, text } };
      return lex.elsewhere.has(text) && !known(lex, text) ? { text, elsewhere: true } : { text };
    });
    tokens.splice(i, 1, ...pieces);
  }
  const elsewhere = tokens.filter((t) => t.elsewhere).map((t) => t.text);
  for (let i = tokens.length - 1; i >= 0; i--) if (tokens[i]!.elsewhere) tokens.splice(i, 1);
  // 3. Words that name nothing exactly may be a place with one letter wrong or swapped
  // ("Chalogn", "Chiang Mia"): the longest run of such words first.
  for (let i = 0; i < tokens.length; i++) {
    for (let n = Math.min(lex.maxWords, tokens.length - i); n >= 1; n--) {
      const span = tokens.slice(i, i + n);
      if (span.some((t) => t.place)) continue;
      const ws = span.map((t) => t.text);
      if (n === 1 && known(lex, keyOf(ws))) continue;
      const ids = typoPlaces(keyOf(ws), lex);
      if (!ids.length) continue;
      const text = ws.join(' ');
      tokens.splice(i, n, { text, place: { ids, exact: false, text } });
      break;
    }
  }
  const rest: PlanWord[] = [];
  const intents: IntentMatch[] = [...patterned.intents];
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
      if (known(lex, keyOf(span.map((s) => s.text)))) break;
    }
    const text = tokens
      .slice(i, i + n)
      .map((s) => s.text)
      .join(' ');
    const k = n === 1 ? corrected(keyOf([text]), lex) : keyOf(text.split(' '));
    i += n;
    const intent = lex.intents.get(k);
    if (intent) {
      for (const { id, effect } of intent) {
        intents.push({ id, text, effect });
        for (const hit of effect.codes ?? []) {
          rest.push({ text, alternatives: [], vocabulary: [hit], generic: false, kinds: kindsOf([hit], lex) });
        }
      }
      continue;
    }
    if (lex.stop.has(k)) continue;
    // A typo read as a known word is looked for as that word too, in its own language.
    const typed = n === 1 ? keyOf([text]) : k;
    const alternatives = [...(typed !== k ? [k] : []), ...(lex.synonyms.get(k) ?? [])];
    const vocabulary = [...(lex.vocabulary.get(k) ?? [])];
    for (const alt of alternatives) {
      for (const hit of lex.vocabulary.get(keyOf(words(alt))) ?? []) {
        if (!vocabulary.some((v) => v.field === hit.field && v.code === hit.code)) vocabulary.push(hit);
      }
    }
    // One Thai or Chinese letter the lexicon does not know is what is left of a typo (พัทยาา), and
    // a number no pattern took (a year, a house number) says nothing a listing has: they rank, never bind.
    const stray = n === 1 && !vocabulary.length && ((isUnspaced(text) && [...text].length === 1) || /^\d+$/.test(text));
    const siblings = vocabulary
      .flatMap((v) => lex.siblings.get(`${v.field}:${v.code}`) ?? [])
      .filter((s) => !vocabulary.some((v) => v.field === s.field && v.code === s.code));
    rest.push({
      text,
      alternatives,
      vocabulary,
      generic: stray || lex.generic.has(k),
      kinds: kindsOf(vocabulary, lex),
      ...(lex.specific.has(k) ? { specific: true } : {}),
      ...(siblings.length ? { siblings } : {}),
    });
  }
  // A query of generic words only ("rental") still means them.
  const binds = placeMatches.length > 0 || intents.length > 0 || rest.some((w) => !w.generic);
  if (!binds) for (const w of rest) w.generic = false;
  const named = new Set(placeMatches.flatMap((m) => m.ids));
  const placeIds = [...named].filter(
    (id) => ![...named].some((other) => other !== id && lex.places.get(other)?.pathIds.includes(id)),
  );
  placeIds.sort((a, b) => a - b);
  const wider = placeIds.map((id) => {
    const path = lex.places.get(id)?.pathIds ?? [id];
    const region = path.find((p) => lex.places.get(p)?.level === 'region') ?? null;
    return { id, parent: path.length > 1 ? path[path.length - 2]! : null, region: region === id ? null : region };
  });
  return { placeIds, placeMatches, intents, words: rest, elsewhere, wider };
}

/** Kinds a word's codes concern: a category's kind, an amenity's kinds, stay for a property type. */
function kindsOf(hits: VocabularyHit[], lex: Lexicon): string[] {
  const kinds = new Set(
    hits.flatMap((v) => (v.field === 'property_type' ? ['stay'] : (lex.codeKinds.get(`${v.field}:${v.code}`) ?? []))),
  );
  return [...kinds];
}

/**
 * A word the lexicon does not know, read as the known word it most likely is: a Chinese word of
 * the same sound (民俗 for 民宿), or a Latin or Cyrillic word one letter off (two from eight
 * letters: "snorkling", "морепрадукты"). Unchanged when nothing is close.
 */
function corrected(key: string, lex: Lexicon): string {
  if (known(lex, key)) return key;
  if (isHan(key)) return ([...key].length >= 2 && lex.wordSounds.get(soundKey(key))) || key;
  if (isUnspaced(key)) return thaiCorrected(key, lex);
  if (!typoAllowed(key)) return key;
  const max = [...key].length >= 8 ? 2 : 1;
  let best: string | null = null;
  let bestD = max + 1;
  for (const w of lex.typoWords) {
    const d = editDistance(key, w, max);
    if (d < bestD) {
      best = w;
      bestD = d;
    }
  }
  return best ?? key;
}

/**
 * A Thai word the lexicon does not know, read as the known one it is a typo of: tone marks aside,
 * one letter off from four letters (two from eight: วอลเลบอล for วอลเลย์บอล), or, in a shorter
 * word, only its last letter swapped for one of the same sound (แจ๊ด for แจ๊ส).
 */
function thaiCorrected(key: string, lex: Lexicon): string {
  const bare = thaiBare(key);
  const n = [...bare].length;
  if (n < 3) return key;
  const max = n >= 8 ? 2 : n >= 4 ? 1 : 0;
  let best: string | null = null;
  let bestD = Infinity;
  for (const w of lex.thaiTypoWords) {
    // A letter of the same sound is the likeliest reading of all (below one edit).
    const d = sameThaiSound(bare, w.bare) ? (bare === w.bare ? 0 : 0.5) : editDistance(bare, w.bare, max);
    if ((d <= max || d === 0.5) && d < bestD) {
      best = w.word;
      bestD = d;
    }
  }
  return best ?? key;
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
  synonyms: { groups: {}, generic: {}, stop: {} },
});

/** The plan the service made with its lexicon, or, for a builder used on its own, `q` as words only. */
export function planOrWords(q: string | undefined, plan: QueryPlan | null | undefined): QueryPlan | null {
  if (!q) return null;
  return plan ?? understand(q, NO_LEXICON);
}
