import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_LANG, LANGUAGES, type Lang } from '@guest/http-kit';

/**
 * Dictionaries of interface strings: one flat JSON file per language in one directory
 * (`en.json`, `ru.json`, `th.json`, `zh-Hans.json`), keys are dotted names
 * (`search.filters.price`), values are strings with optional `{name}` placeholders.
 * English is complete by definition; any other language may lack keys, which are then served
 * in English. The same checks run in `npm run check:i18n` and when the read API starts.
 */
export type Strings = Record<string, string>;

export interface LanguageCoverage {
  lang: Lang;
  translated: number;
  total: number;
  /** Share of the English keys this language translates, 0 to 100 with one decimal. */
  percent: number;
  missing: string[];
}

export interface DictionaryInspection {
  /** Every problem found, each naming the file and, where there is one, the key. */
  problems: string[];
  coverage: LanguageCoverage[];
  /** Parsed dictionaries (only the string entries of files that parsed). */
  dictionaries: Partial<Record<Lang, Strings>>;
}

const KEY = /^[a-z0-9_]+(\.[a-z0-9_]+)+$/;
const PLACEHOLDER = /\{([a-zA-Z0-9_]+)\}/g;

function placeholders(text: string): string {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]))].sort().join(',');
}

function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

function isLang(code: string): code is Lang {
  return (LANGUAGES as readonly string[]).includes(code);
}

function readOne(file: string, name: string, problems: string[]): Strings | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    problems.push(`${name}: invalid JSON: ${(err as Error).message}`);
    return null;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    problems.push(`${name}: must be one JSON object of "key": "text" pairs, found ${describeValue(parsed)}`);
    return null;
  }
  const out: Strings = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (!KEY.test(key)) {
      problems.push(`${name}: key "${key}" is not a dotted name of lowercase words (like "search.filters.price")`);
    }
    if (typeof value !== 'string') {
      problems.push(`${name}: "${key}" is ${describeValue(value)}, not a string`);
      continue;
    }
    if (value.trim() === '') {
      problems.push(`${name}: "${key}" is empty; leave the key out so that English is served`);
      continue;
    }
    out[key] = value;
  }
  return out;
}

/** Reads and checks every dictionary in `dir`; never throws for bad content, reports it. */
export function inspectDictionaries(dir: string): DictionaryInspection {
  const problems: string[] = [];
  const dictionaries: Partial<Record<Lang, Strings>> = {};
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    return { problems: [`${dir}: no such directory`], coverage: [], dictionaries };
  }
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith('.json')) continue;
    const code = name.slice(0, -'.json'.length);
    if (!isLang(code)) {
      problems.push(`${name}: "${code}" is not an interface language (${LANGUAGES.join(', ')})`);
      continue;
    }
    const strings = readOne(path.join(dir, name), name, problems);
    if (strings) dictionaries[code] = strings;
  }
  const english = dictionaries[DEFAULT_LANG];
  if (!english) {
    if (!problems.some((p) => p.startsWith(`${DEFAULT_LANG}.json`))) problems.push(`${DEFAULT_LANG}.json: missing`);
    return { problems, coverage: [], dictionaries };
  }
  const keys = Object.keys(english);
  const coverage: LanguageCoverage[] = [];
  for (const lang of LANGUAGES) {
    if (lang === DEFAULT_LANG) continue;
    const dict = dictionaries[lang] ?? {};
    for (const [key, text] of Object.entries(dict)) {
      const source = english[key];
      if (source === undefined) {
        problems.push(`${lang}.json: "${key}" is not in ${DEFAULT_LANG}.json`);
      } else if (placeholders(text) !== placeholders(source)) {
        problems.push(
          `${lang}.json: "${key}" has placeholders {${placeholders(text)}} but ${DEFAULT_LANG}.json has {${placeholders(source)}}`,
        );
      }
    }
    const missing = keys.filter((k) => dict[k] === undefined);
    const translated = keys.length - missing.length;
    const percent = keys.length ? Math.round((translated / keys.length) * 1000) / 10 : 100;
    coverage.push({ lang, translated, total: keys.length, percent, missing });
  }
  return { problems, coverage, dictionaries };
}

export interface ResolvedDictionary {
  lang: Lang;
  strings: Strings;
  /** Keys this language lacks, served in English. */
  missing: string[];
  /**
   * Content hash of this language's served dictionary (its strings with the English fill): per
   * language, so a version held for one language never makes another one's answer a 304, and it
   * changes when an English string it shows changes.
   */
  version: string;
}

export interface DictionarySet {
  byLang: Record<Lang, ResolvedDictionary>;
}

export class DictionaryError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `Interface dictionaries are invalid (run npm run check:i18n):\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
    this.name = 'DictionaryError';
  }
}

/**
 * Loads the dictionaries for serving, once at start: the full dictionary of every language with
 * English filling the gaps, and the version. Refuses (throws) when the check finds problems,
 * so a broken file stops the start instead of serving half a dictionary.
 */
export function loadDictionaries(dir: string): DictionarySet {
  const { problems, dictionaries } = inspectDictionaries(dir);
  if (problems.length) throw new DictionaryError(problems);
  const english = dictionaries[DEFAULT_LANG] as Strings;
  const byLang = {} as Record<Lang, ResolvedDictionary>;
  for (const lang of LANGUAGES) {
    const own = dictionaries[lang] ?? {};
    const strings: Strings = {};
    const missing: string[] = [];
    for (const [key, text] of Object.entries(english)) {
      const translated = own[key];
      strings[key] = translated ?? text;
      if (translated === undefined) missing.push(key);
    }
    // Canonical form: sorted keys, so reformatting a file does not change the version.
    const canonical = Object.keys(strings)
      .sort()
      .map((k) => [k, strings[k]]);
    const version = createHash('sha256')
      .update(JSON.stringify([lang, canonical]))
      .digest('hex')
      .slice(0, 16);
    byLang[lang] = { lang, strings, missing, version };
  }
  return { byLang };
}
