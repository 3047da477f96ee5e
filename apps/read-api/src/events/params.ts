import { z } from 'zod';
import type { Config } from '@guest/config';
import { cursorParam, langParam, limitParam, queryBool } from '@guest/http-kit';
import { EVENT_AUDIENCES, EVENT_CROWDS, EVENT_ENTRIES, EVENT_LANGS } from '@guest/catalog';
import { CLUSTER_MAX_ZOOM } from '../geo/clusters.ts';
import { bbox, code, geoRules, isoDate, list, near, radiusM, searchText, zoom } from '../query-grammar.ts';

/**
 * The shared event filter parameters (spec 4.8), ONE schema reused by the calendar, upcoming,
 * the by-day feed and the events map. Values are written as the read API's grammar says
 * (`query-grammar.ts`, the same as the listings search). `eventRules` (radius_m without near) is
 * applied by each route after extending; the day rules (day vs. a range, day_from after day_to)
 * are checked by `resolveEventWindow`.
 */

export const ENTRY_VALUES = [...EVENT_ENTRIES, 'any'] as const;
export const TIME_VALUES = ['morning', 'day', 'evening', 'any'] as const;
export const AUDIENCE_VALUES = [...EVENT_AUDIENCES, 'any'] as const;
export const EVENT_LANG_VALUES = [...EVENT_LANGS, 'any'] as const;
export const DEFAULT_EVENTS_TIMEZONE = 'Asia/Bangkok';

// Building an Intl.DateTimeFormat costs tens of microseconds and every events request checks its
// zone: the answers for the few zones in use are kept (bounded, so made-up zones cannot grow it).
const ZONE_MEMO_MAX = 512;
const zoneMemo = new Map<string, string | null>();

function resolveZone(tz: string): string | null {
  const known = zoneMemo.get(tz);
  if (known !== undefined) return known;
  let canonical: string | null = null;
  if (/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(tz)) {
    try {
      canonical = new Intl.DateTimeFormat('en', { timeZone: tz }).resolvedOptions().timeZone;
    } catch {
      canonical = null;
    }
  }
  if (zoneMemo.size >= ZONE_MEMO_MAX) zoneMemo.clear();
  zoneMemo.set(tz, canonical);
  return canonical;
}

/** True for a real IANA zone name (`Asia/Bangkok`, `UTC`); offsets such as `+07:00` are refused. */
export function isIanaZone(tz: string): boolean {
  return resolveZone(tz) !== null;
}

/** The zone's canonical spelling (`asia/bangkok` → `Asia/Bangkok`). */
export function canonicalZone(tz: string): string {
  const canonical = resolveZone(tz);
  if (canonical === null) throw new RangeError(`Invalid time zone: ${tz}`);
  return canonical;
}

export const EventFilterParams = z
  .object({
    day: isoDate.optional().meta({ description: 'One day (venue zone). Not applied to the calendar strip.' }),
    day_from: isoDate.optional().meta({ description: 'First day of a range (venue zone), inclusive.' }),
    day_to: isoDate.optional().meta({ description: 'Last day of a range (venue zone), inclusive.' }),
    category: list(code).optional().meta({ description: 'Event category codes; any matches.' }),
    entry: z.enum(ENTRY_VALUES).default('any'),
    time: z.enum(TIME_VALUES).default('any').meta({
      description:
        'By local start time at the venue: `morning` 05:00–11:59, `day` 12:00–16:59, `evening` 17:00–04:59 (through the night).',
    }),
    audience: z.enum(AUDIENCE_VALUES).default('any').meta({ description: 'Exact audience of the event.' }),
    crowd: list(z.enum(EVENT_CROWDS))
      .optional()
      .meta({ description: 'Expected crowd sizes (`intimate`, `small`, `medium`, `large`); any matches.' }),
    event_lang: z
      .enum(EVENT_LANG_VALUES)
      .default('any')
      .meta({ description: 'Language the event is held in; exact match (`multi` means several languages).' }),
    q: searchText.optional().meta({
      description:
        'Words matched against name, description, venue and place, in all languages at once; all words must match. ' +
        'A `q` without any letter or digit (empty, spaces, punctuation only) is treated as absent.',
    }),
    bbox: bbox.optional(),
    near: near.optional().meta({
      description:
        '`lat,lon` in degrees. Alone it filters nothing (as in the listings search); with `radius_m`, only events within it.',
    }),
    radius_m: radiusM.optional().meta({
      description: 'Only events within this many metres of `near` (needs `near`); without it, no distance filter.',
    }),
    timezone: z
      .string()
      .default(DEFAULT_EVENTS_TIMEZONE)
      .refine(isIanaZone, 'must be an IANA time zone, e.g. Asia/Bangkok')
      .transform(canonicalZone)
      .meta({ description: 'IANA zone in which "today" is computed; default `Asia/Bangkok`.' }),
    cursor: cursorParam,
    lang: langParam,
  })
  .meta({
    description:
      'Shared event filters (spec 4.8). A window that starts today also holds the occurrences of the day before ' +
      'that are still on (running past midnight) until they end: the lists show them (the feed under today, the ' +
      'card keeping its own `day`) and the calendar counts them today.',
  });

export type EventFilterQuery = z.infer<typeof EventFilterParams>;

/** The cross-field rules of the shared event filters, applied by every route after extending. */
export const eventRules = geoRules;

/** `days` of the upcoming list, the feed and the map: window from today, ignored with `day` or `day_to`. */
export function windowDaysParam(def: number, max: number) {
  return z.coerce
    .number()
    .int()
    .min(1)
    .max(max)
    .default(def)
    .meta({
      description:
        `Window in days from today, or from \`day_from\` when it is later, 1 to ${max}; default ${def}. ` +
        'Ignored when `day` or `day_to` is given.',
    });
}

type ListConfig = Pick<
  Config,
  'SEARCH_LIMIT_DEFAULT' | 'SEARCH_LIMIT_MAX' | 'UPCOMING_DAYS_DEFAULT' | 'EVENTS_HORIZON_DAYS'
>;

/** Query of `/v1/events/calendar`: the shared filters, the first day and the length of the strip. */
export function calendarParams(
  config: Pick<Config, 'CALENDAR_DAYS_MAX' | 'CALENDAR_DAYS_DEFAULT' | 'SEARCH_LIMIT_DEFAULT' | 'SEARCH_LIMIT_MAX'>,
) {
  // Not a list: no `cursor` (a feed's query string still works here, unknown keys being dropped).
  return EventFilterParams.omit({ cursor: true })
    .extend({
      first: isoDate.optional().meta({
        description:
          'First day of the strip; default today in `timezone`. A day before today is refused (400 `validation_error`, ' +
          'reason `before_today`): past occurrences are not kept, so their days could only show 0. A strip that would ' +
          'run past 9999-12-31 is refused too (reason `after_last_day`).',
      }),
      days: z.coerce
        .number()
        .int()
        .min(1)
        .max(config.CALENDAR_DAYS_MAX)
        .default(config.CALENDAR_DAYS_DEFAULT)
        .meta({
          description: `Days in the strip, 1 to ${config.CALENDAR_DAYS_MAX}; default ${config.CALENDAR_DAYS_DEFAULT}.`,
        }),
      limit: limitParam(config.SEARCH_LIMIT_DEFAULT, config.SEARCH_LIMIT_MAX).optional().meta({
        description:
          'Accepted for parity with the feed (the same query string works for both); it does not change the strip.',
      }),
    })
    .superRefine(eventRules);
}

/** Query of `/v1/events/upcoming`: the shared filters, the page, the window and `with_total`. */
export function upcomingParams(config: ListConfig) {
  return EventFilterParams.extend({
    limit: limitParam(config.SEARCH_LIMIT_DEFAULT, config.SEARCH_LIMIT_MAX),
    days: windowDaysParam(config.UPCOMING_DAYS_DEFAULT, config.EVENTS_HORIZON_DAYS),
    with_total: queryBool.default(false).meta({ description: 'Also count the distinct matching events (`total`).' }),
  }).superRefine(eventRules);
}

/** Query of `/v1/events/feed`: the shared filters, the page and the window. */
export function eventFeedParams(config: ListConfig) {
  return EventFilterParams.extend({
    limit: limitParam(config.SEARCH_LIMIT_DEFAULT, config.SEARCH_LIMIT_MAX).meta({
      description: `Cards per page (occurrences), 1 to ${config.SEARCH_LIMIT_MAX}; default ${config.SEARCH_LIMIT_DEFAULT}.`,
    }),
    days: windowDaysParam(config.UPCOMING_DAYS_DEFAULT, config.EVENTS_HORIZON_DAYS),
  }).superRefine(eventRules);
}

/** Query of `/v1/events/map`: the shared filters, the zoom and the window. */
export function eventMapParams(config: Pick<Config, 'UPCOMING_DAYS_DEFAULT' | 'EVENTS_HORIZON_DAYS'>) {
  // Not a list: no `cursor`.
  return EventFilterParams.omit({ cursor: true })
    .extend({
      zoom: zoom.meta({ description: `Map zoom: up to ${CLUSTER_MAX_ZOOM} clusters, beyond that points.` }),
      days: windowDaysParam(config.UPCOMING_DAYS_DEFAULT, config.EVENTS_HORIZON_DAYS),
    })
    .superRefine(eventRules);
}

/** Path of `/v1/events/{slug}`. */
export const EventSlugParams = z.object({ slug: z.string().min(1).max(200) });
