import { z } from 'zod';
import type { BBox, LatLon } from './geo/filters.ts';
import { wordyOrAbsent } from './query-text.ts';

/**
 * The one grammar of the read API's query parameters: a box, a point and a radius, lists, dates,
 * currencies, codes and the search text mean the same and are refused with the same 400 (same
 * field, same message) on the search and the events routes. Each route names its parameters and
 * says what they select (`.meta({ description })`); how a value is written is decided here.
 */

const CODE_RE = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** A code of the catalog (amenity, property type, category…): lowercase letters, digits, `_` and `-`. */
export const code = z.string().regex(CODE_RE, 'must be a lowercase code (a-z, 0-9, _ and -)');

/**
 * A whole number from `min` to `max`, written in decimal digits (as a parameter of its own, the
 * HTTP kit's input screen refuses ` 12 `, `1e3`, `0x10` and an empty value, which a bare number
 * coercion takes; as an item of a `list`, the list does).
 */
export const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const DECIMAL_RE = /^-?[0-9]{1,16}(\.[0-9]{1,16})?$/;

/** Whether a list item's schema is a number coerced from the query string (`int`, `z.coerce.number()`). */
function coercedNumber(item: z.ZodType): boolean {
  const def = (item as unknown as { _zod: { def: { type: string; coerce?: boolean } } })._zod.def;
  return def.type === 'number' && def.coerce === true;
}

/** The JSON schema of a list's item, for the document (the list itself reads strings). */
function itemSchema(item: z.ZodType): Record<string, unknown> {
  const { $schema: _, ...json } = z.toJSONSchema(item, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return json;
}

/**
 * Repeated (`a=x&a=y`) or comma-separated (`a=x,y`) query values, as one array of at least one
 * value. A bad element is reported on the parameter itself (`details.field` = `amenities`, not
 * `amenities.2`), quoting it. The document says what each item is (`items`); an item is taken as
 * written (` 12 ` is no integer, ` pool` no code), as the document and a validating proxy read it.
 */
export function list<T extends z.ZodType>(item: T, max = 50) {
  const listed = z.preprocess(
    (v) => {
      const raw = Array.isArray(v) ? v : [v];
      return raw.flatMap((s) => (typeof s === 'string' ? s.split(',') : [s])).filter((s) => s !== '');
    },
    z
      .array(z.string())
      .min(1)
      .max(max)
      .transform((values, ctx) => {
        const out: Array<z.output<T>> = [];
        const numeric = coercedNumber(item);
        for (const v of values) {
          if (numeric && !DECIMAL_RE.test(v)) {
            ctx.addIssue({ code: 'custom', message: `"${v}": must be a number written in decimal digits` });
            return z.NEVER;
          }
          const r = item.safeParse(v);
          if (!r.success) {
            ctx.addIssue({ code: 'custom', message: `"${v}": ${r.error.issues[0]?.message ?? 'invalid'}` });
            return z.NEVER;
          }
          out.push(r.data);
        }
        return out;
      }),
  );
  return listed.meta({ items: itemSchema(item) });
}

/** `YYYY-MM-DD` that is a real calendar date (2026-02-30 is refused). */
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
  }, 'is not a calendar date')
  .meta({ format: 'date' });

/** A 3-letter currency code (ISO 4217). */
export const currency = z.string().regex(/^[A-Z]{3}$/, 'must be a 3-letter currency code');

const NUM = String.raw`\s*(-?\d+(?:\.\d+)?)\s*`;
const BBOX_RE = new RegExp(`^${NUM},${NUM},${NUM},${NUM}$`);
const NEAR_RE = new RegExp(`^${NUM},${NUM}$`);

/** `minLon,minLat,maxLon,maxLat` in degrees; minLon > maxLon crosses the antimeridian. */
export const bbox = z
  .string()
  .transform((v, ctx): BBox => {
    const m = BBOX_RE.exec(v);
    const fail = (message: string) => {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    };
    if (!m) return fail('must be minLon,minLat,maxLon,maxLat (four numbers)');
    const [minLon, minLat, maxLon, maxLat] = m.slice(1).map(Number) as [number, number, number, number];
    if ([minLon, maxLon].some((x) => x < -180 || x > 180)) return fail('longitudes must be within -180..180');
    if ([minLat, maxLat].some((x) => x < -90 || x > 90)) return fail('latitudes must be within -90..90');
    if (minLat > maxLat) return fail('minLat must not be greater than maxLat');
    // minLon > maxLon is a box that crosses the antimeridian: allowed.
    return { minLon, minLat, maxLon, maxLat };
  })
  .meta({ description: '`minLon,minLat,maxLon,maxLat` in degrees; minLon > maxLon crosses the antimeridian.' });

/** `lat,lon` in degrees. */
export const near = z.string().transform((v, ctx): LatLon => {
  const m = NEAR_RE.exec(v);
  const fail = (message: string) => {
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  };
  if (!m) return fail('must be lat,lon (two numbers)');
  const [lat, lon] = m.slice(1).map(Number) as [number, number];
  if (lat < -90 || lat > 90) return fail('lat must be within -90..90');
  if (lon < -180 || lon > 180) return fail('lon must be within -180..180');
  return { lat, lon };
});

/** Metres around `near`: from 1 m to half the Earth's circumference (anything farther is everywhere). */
export const radiusM = int(1, 20_000_000);

/** Free text of a search: at most 200 characters; one without any letter or digit is absent. */
export const searchText = z.string().max(200).transform(wordyOrAbsent);

/** Map zoom 0 to 22, as map libraries count it. */
export const zoom = int(0, 22);

/** The cross-field rule of the geographic parameters: a radius needs its centre. */
export function geoRules(v: { near?: LatLon | undefined; radius_m?: number | undefined }, ctx: z.RefinementCtx): void {
  if (v.radius_m !== undefined && !v.near)
    ctx.addIssue({ code: 'custom', path: ['radius_m'], message: 'radius_m needs near' });
}
