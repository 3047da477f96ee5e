import { catalogRecord, type CatalogRecord } from '@guest/catalog';

export interface ParsedLine {
  line: number;
  record: CatalogRecord;
}

/** Keys that lines which failed to parse declare: references to them are not reported again. */
export interface DeclaredKeys {
  places: Set<string>;
  categories: Set<string>;
  amenities: Set<string>;
  currencies: Set<string>;
}

export interface ParseResult {
  records: ParsedLine[];
  /** `line N: field: reason`, one entry per bad line, in line order. */
  errors: string[];
  /** What the bad lines would have added to the catalog, as far as it can be read. */
  declared: DeclaredKeys;
}

/** Key a record is upserted by; duplicates within one file are refused (which one would win?). */
export function recordKey(r: CatalogRecord): string {
  switch (r.type) {
    case 'currency':
    case 'category':
    case 'amenity':
      return `${r.type}:${r.code}`;
    case 'fx_rate':
      return `fx_rate:${r.base}:${r.date}`;
    default:
      return `${r.type}:${r.external_id}`;
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/** Why Postgres could not store this text (it takes neither NUL nor a lone surrogate), or null. */
function textProblem(s: string): string | null {
  if (s.includes('\u0000')) return 'contains a NUL character (\\u0000)';
  if (LONE_SURROGATE.test(s)) return 'contains a lone surrogate (invalid Unicode)';
  return null;
}

/**
 * An error line as it may be printed: NUL and lone surrogates (in keys named by a reason) as
 * `\u` escapes, so the report itself is clean text.
 */
export function printable(s: string): string {
  return s
    .replace(/\u0000/g, '\\u0000')
    .replace(LONE_SURROGATES, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Every string of a parsed line (keys too) that Postgres cannot store, as `field: reason`.
 * Iterative: a line may nest arrays thousands deep.
 */
function textProblems(json: unknown): string[] {
  const out: string[] = [];
  const stack: Array<{ value: unknown; path: string[] }> = [{ value: json, path: [] }];
  const field = (path: string[]) => path.join('.');
  while (stack.length) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      const p = textProblem(value);
      if (p) out.push(`${field(path)}: ${p}`);
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: [...path, String(i)] });
    } else if (value && typeof value === 'object') {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i]!;
        const p = textProblem(k);
        if (p) out.push(`${field([...path, k])}: the key ${p}`);
        stack.push({ value: (value as Record<string, unknown>)[k], path: [...path, k] });
      }
    }
  }
  return out;
}

/** V8 quotes the start of the line in some JSON.parse messages: the reason only, never the content. */
function jsonReason(err: unknown): string {
  return ((err as Error)?.message ?? String(err)).replace(/, (?:\.\.\.)?".* is not valid JSON$/s, '');
}

/** Remembers the key a bad line declares (when it reads as one), so references to it are not reported too. */
function declare(declared: DeclaredKeys, json: unknown): void {
  if (!json || typeof json !== 'object') return;
  const { type, code, external_id: externalId } = json as Record<string, unknown>;
  if (type === 'place' && typeof externalId === 'string') declared.places.add(externalId);
  else if (type === 'category' && typeof code === 'string') declared.categories.add(code);
  else if (type === 'amenity' && typeof code === 'string') declared.amenities.add(code);
  else if (type === 'currency' && typeof code === 'string') declared.currencies.add(code);
}

/**
 * Validates every line of an NDJSON text against the catalog schemas and reports every bad
 * line, not only the first, so a file can be fixed in one go. Blank lines are allowed. A reason
 * never quotes the line's content.
 */
export function parseCatalogNdjson(text: string | Iterable<string>): ParseResult {
  const records: ParsedLine[] = [];
  const errors: string[] = [];
  const declared: DeclaredKeys = {
    places: new Set(),
    categories: new Set(),
    amenities: new Set(),
    currencies: new Set(),
  };
  const seen = new Map<string, number>();
  let line = 0;
  for (const rawLine of typeof text === 'string' ? text.split('\n') : text) {
    const raw = rawLine.trim();
    line++;
    if (raw === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (err) {
      errors.push(printable(`line ${line}: not valid JSON (${jsonReason(err)})`));
      continue;
    }
    const reasons = textProblems(json);
    const parsed = catalogRecord.safeParse(json);
    if (!parsed.success) {
      reasons.push(
        ...parsed.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)),
      );
    }
    if (reasons.length || !parsed.success) {
      errors.push(printable(`line ${line}: ${reasons.join('; ')}`));
      declare(declared, json);
      continue;
    }
    const key = recordKey(parsed.data);
    const first = seen.get(key);
    if (first !== undefined) {
      errors.push(`line ${line}: duplicate ${key} (first on line ${first})`);
      continue;
    }
    seen.set(key, line);
    records.push({ line, record: parsed.data });
  }
  return { records, errors, declared };
}

/** Errors of every check, each `line N: …`, in line order (stable: a line's reasons keep their order). */
export function byLine(errors: string[]): string[] {
  const lineOf = (e: string) => Number(/^line (\d+):/.exec(e)?.[1] ?? Number.MAX_SAFE_INTEGER);
  return errors
    .map((e, i) => ({ e, i, n: lineOf(e) }))
    .sort((a, b) => a.n - b.n || a.i - b.i)
    .map((x) => x.e);
}
