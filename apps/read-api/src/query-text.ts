/**
 * A search text with no word in it (punctuation, symbols, spaces only) selects nothing the
 * analyzers can match: the engine then either matched every document (listings) or none
 * (events). Such a `q` is treated as absent on every route, so the answer is the one without it.
 * A word is any letter or digit of any script (Thai and Chinese letters are letters too).
 */
export function wordyOrAbsent(q: string | undefined): string | undefined {
  if (q === undefined) return undefined;
  const t = q.trim();
  return /[\p{L}\p{N}]/u.test(t) ? t : undefined;
}
