/**
 * Word-level text handling of query understanding: the same normal form for what a guest types
 * and for the names it is compared with (places, categories, synonyms), so comparing is a string
 * equality, the same on either search engine.
 */

/** Scripts written without spaces between words: a run of them may hold several words. */
export const UNSPACED = /[\p{Script=Thai}\p{Script=Han}]/u;
const HAN = /\p{Script=Han}/u;
const CYRILLIC = /\p{Script=Cyrillic}/u;

/**
 * Lower case, compatibility forms folded (full-width letters), ё as е, accents off Latin letters.
 * NFKC splits Thai sara am (ำ) into nikhahit + sara aa, which no Thai text is written with: put back.
 */
export function fold(s: string): string {
  return s
    .normalize('NFKC')
    .replace(/\u0E4D\u0E32/g, '\u0E33')
    .toLowerCase()
    .replace(/ё/g, 'е')
    .normalize('NFD')
    .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
    .normalize('NFC');
}

/**
 * The words of a text: letters, digits and their combining marks (Thai vowels and tone marks stay
 * with their letter); apostrophes vanish (Fisherman's = Fishermans), any other punctuation,
 * symbol or space separates.
 */
export function words(s: string): string[] {
  return fold(s)
    .replace(/['’ʼ`]/g, '')
    .split(/[^\p{L}\p{N}\p{M}]+/u)
    .filter(Boolean);
}

/**
 * Case endings of Russian nouns, longest first: "в Пхукете", "на Самуи", "Паттайя/Паттайе" are
 * the same place. Only one ending is taken off and at least three letters stay.
 */
const RU_ENDINGS = [
  'ами',
  'ями',
  'ов',
  'ев',
  'ого',
  'его',
  'ому',
  'ему',
  'ах',
  'ях',
  'ом',
  'ем',
  'ой',
  'ей',
  'ам',
  'ям',
  'ую',
  'юю',
  'ая',
  'яя',
  'ое',
  'ее',
  'ые',
  'ие',
  'ы',
  'и',
  'а',
  'я',
  'е',
  'у',
  'ю',
  'о',
  'й',
  'ь',
];

export function stem(word: string): string {
  if (!CYRILLIC.test(word)) return word;
  for (const e of RU_ENDINGS) {
    if (word.endsWith(e) && word.length - e.length >= 3) return word.slice(0, -e.length);
  }
  return word;
}

/** The comparison key of a sequence of words (Russian ones stemmed). */
export function keyOf(ws: string[]): string {
  return ws.map(stem).join(' ');
}

/** The keys a name is known by: its words, and run together when it has several (Bang Tao = Bangtao). */
export function nameKeys(name: string): string[] {
  const ws = words(name);
  if (!ws.length) return [];
  const keys = [keyOf(ws)];
  if (ws.length > 1) keys.push(stem(ws.join('')));
  return keys;
}

export const isUnspaced = (s: string) => UNSPACED.test(s);
export const isHan = (s: string) => HAN.test(s);

/**
 * Optimal string alignment distance, capped: one wrong, missing, extra or swapped (adjacent)
 * letter is 1. Returns `max + 1` as soon as the distance is known to exceed `max`.
 */
export function editDistance(a: string, b: string, max = 1): number {
  const x = [...a];
  const y = [...b];
  if (Math.abs(x.length - y.length) > max) return max + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= x.length; i++) {
    rows.push(Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  }
  for (let i = 1; i <= x.length; i++) {
    let best = Infinity;
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
  }
  return rows[x.length]![y.length]!;
}

/** A Thai word without its tone marks and its silent-letter mark (ไม้ทัณฑฆาต), which guests leave out or misplace. */
export function thaiBare(word: string): string {
  return word.replace(/[\u0E48-\u0E4C]/gu, '');
}

/** Thai consonants that sound the same at the end of a syllable (-k, -t, -p, -n): a guest writes whichever comes to mind. */
const THAI_FINALS = ['กขคฆ', 'ดตถทธฎฏฐฑฒจชซศษส', 'บปพฟภ', 'นณญรลฬ'];

/** Whether two bare Thai words differ at most in which letter of the same sound ends them (แจด, แจส). */
export function sameThaiSound(a: string, b: string): boolean {
  const x = [...a];
  const y = [...b];
  if (x.length !== y.length || x.slice(0, -1).join('') !== y.slice(0, -1).join('')) return false;
  const last = (c: string | undefined) => THAI_FINALS.findIndex((f) => f.includes(c ?? ''));
  return x.at(-1) === y.at(-1) || (last(x.at(-1)) >= 0 && last(x.at(-1)) === last(y.at(-1)));
}

/** Letters a typo may be forgiven in: short words are too close to other words to guess. */
export function typoAllowed(key: string): boolean {
  const n = [...key.replace(/ /g, '')].length;
  return isHan(key) ? n >= 3 : n >= 4;
}
