import { catalogRecord, type CatalogRecord } from '@guest/catalog';

export interface ParsedLine {
  line: number;
  record: CatalogRecord;
}

export interface ParseResult {
  records: ParsedLine[];
  /** `line N: reason`, one entry per problem, in line order. */
  errors: string[];
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

/**
 * Validates every line of an NDJSON text against the catalog schemas and reports every bad
 * line, not only the first, so a file can be fixed in one go. Blank lines are allowed.
 */
export function parseCatalogNdjson(text: string | Iterable<string>): ParseResult {
  const records: ParsedLine[] = [];
  const errors: string[] = [];
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
      errors.push(`line ${line}: not valid JSON (${(err as Error).message})`);
      continue;
    }
    const parsed = catalogRecord.safeParse(json);
    if (!parsed.success) {
      const reasons = parsed.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message));
      errors.push(`line ${line}: ${reasons.join('; ')}`);
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
  return { records, errors };
}
