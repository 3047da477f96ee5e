/**
 * The words of `q` that did select results, for "showing results for …": `q` without the words
 * the API lists in `unmatched_terms` (compared as the API writes them, lower case). Runs written
 * without spaces (Thai, Chinese) lose the unmatched part where it appears.
 */
export function matchedPart(q: string, unmatched: readonly string[]): string {
  const drop = new Set(unmatched.map((w) => w.toLocaleLowerCase()));
  const bare = (w: string) => w.toLocaleLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  const words = q.split(/\s+/).filter(Boolean);
  const kept = words.filter((w) => !drop.has(bare(w)));
  let text = kept.join(' ');
  if (kept.length === words.length) {
    for (const term of unmatched) {
      const at = text.toLocaleLowerCase().indexOf(term.toLocaleLowerCase());
      if (at >= 0) text = `${text.slice(0, at)} ${text.slice(at + term.length)}`;
    }
  }
  return text.replace(/\s+/g, ' ').trim();
}
