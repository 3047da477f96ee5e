import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { paths } from '@guest/client';
import { api, errorCode, type Schemas } from '../../api.ts';
import { appConfig } from '../../config.ts';
import { dayLabel, money } from '../../format.ts';
import { useLang, useT } from '../../i18n.ts';
import { hrefTo, setQuery, type RouteProps } from '../../router.ts';
import { Link } from '../../ui/link.tsx';
import { ErrorNote, Loading } from '../../ui/notice.tsx';
import { CardSkeletons } from '../../ui/skeleton.tsx';
import { venueLine } from './venue-line.ts';

type EventFilters = NonNullable<paths['/v1/events/upcoming']['get']['parameters']['query']>;

/** The zone "today" is counted in: `?timezone=`, else the events region's, else the API's default. */
function zoneOf(query: URLSearchParams): string {
  return query.get('timezone') || appConfig?.region?.timezone || 'Asia/Bangkok';
}

/** A day of a card: weekday, day and month ("Fri, 4 Dec"). */
const SHORT_DAY: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric', month: 'short' };
const LONG_DAY: Intl.DateTimeFormatOptions = { weekday: 'long', day: 'numeric', month: 'long' };
/** A day of the calendar strip, on two lines: "Fri" over "4 Dec". */
const WEEKDAY: Intl.DateTimeFormatOptions = { weekday: 'short' };
const DAY_MONTH: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short' };

/** Every place: no place word in the request. */
const ALL_PLACES = 'all';

type Region = Pick<Schemas['PlaceResponse'], 'slug' | 'name'>;

/** The place the lists are narrowed to: `?place=` (a region's slug, or `all`), else the events region of `/v1/config`. */
function placeOf(query: URLSearchParams): string {
  return query.get('place') || appConfig?.region?.slug || ALL_PLACES;
}

/**
 * The regions a guest may choose (`/v1/places?level=region`, named in the interface language),
 * the events region of `/v1/config` first known without asking.
 */
function useRegions(): Region[] | null {
  const lang = useLang();
  const [regions, setRegions] = useState<Region[] | null>(null);
  useEffect(() => {
    void api
      .GET('/v1/places', { params: { query: { level: 'region' } } })
      .then(({ data }) => setRegions(data ?? []))
      .catch(() => setRegions([]));
  }, [lang]);
  return regions;
}

/**
 * The name the place is asked for by. The spec has no place filter: "district and city are passed
 * in `q`" (spec 1, Place search), and the API's query understanding selects a place it names
 * exactly (with every place below it), so the region's name goes before the guest's own words.
 * Undefined while the chosen place's name is not known yet; null for every place.
 */
function placeWord(place: string, regions: Region[] | null): string | null | undefined {
  if (place === ALL_PLACES) return null;
  if (appConfig?.region?.slug === place) return appConfig.region.name;
  if (!regions) return undefined;
  return regions.find((r) => r.slug === place)?.name ?? null;
}

function eventFilters(query: URLSearchParams, word: string | null): EventFilters {
  const f: Record<string, unknown> = { timezone: zoneOf(query) };
  for (const name of ['entry', 'time', 'audience', 'event_lang']) {
    const v = query.get(name);
    if (v) f[name] = v;
  }
  const category = query.get('category');
  if (category) f.category = category.split(',').filter(Boolean);
  const q = [word, query.get('q')].filter(Boolean).join(' ');
  if (q) f.q = q;
  return f as EventFilters;
}

/**
 * Events: the calendar strip (counts per day, today marked in the chosen zone), then either the
 * upcoming list (one card per event) or, with a day chosen, that day's feed; both paged by cursor.
 */
export function EventsScreen({ query }: RouteProps) {
  const t = useT();
  const lang = useLang();
  const regions = useRegions();
  const place = placeOf(query);
  const word = placeWord(place, regions);
  const filters = useMemo(
    () => (word === undefined ? null : eventFilters(query, word)),
    [query.toString(), word, appConfig?.region?.slug],
  );
  const day = query.get('day');
  const zone = zoneOf(query);
  const [categories, setCategories] = useState<Schemas['CategoryResponse'][]>([]);
  useEffect(() => {
    void api.GET('/v1/events/categories').then(({ data }) => setCategories(data ?? []));
  }, [lang]);
  // The region's zone, the browser's, UTC, and whatever zone the link asked for.
  const zones = [
    ...new Set([
      appConfig?.region?.timezone ?? 'Asia/Bangkok',
      Intl.DateTimeFormat().resolvedOptions().timeZone,
      'UTC',
      zone,
    ]),
  ];

  return (
    <div class="events-screen">
      <h1>{t('events.title')}</h1>
      <div class="event-filters">
        <label class="field">
          {t('web.events.place')}
          <select name="place" value={place} onChange={(e) => setQuery({ place: e.currentTarget.value, cursor: null })}>
            <option value={ALL_PLACES}>{t('web.events.place_all')}</option>
            {(regions ?? (appConfig?.region ? [appConfig.region] : [])).map((r) => (
              <option key={r.slug} value={r.slug}>
                {r.name}
              </option>
            ))}
          </select>
        </label>
        <label class="field">
          {t('web.events.category')}
          <select
            value={query.get('category') ?? ''}
            onChange={(e) => setQuery({ category: e.currentTarget.value || null, cursor: null })}
          >
            <option value="">{t('web.filters.any')}</option>
            {categories.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <label class="field">
          {t('web.events.entry')}
          <select value={query.get('entry') ?? ''} onChange={(e) => setQuery({ entry: e.currentTarget.value || null })}>
            <option value="">{t('events.entry.any')}</option>
            <option value="free">{t('events.entry.free')}</option>
            <option value="paid">{t('events.entry.paid')}</option>
          </select>
        </label>
        <label class="field">
          {t('web.events.time')}
          <select value={query.get('time') ?? ''} onChange={(e) => setQuery({ time: e.currentTarget.value || null })}>
            <option value="">{t('web.filters.any')}</option>
            {['morning', 'day', 'evening'].map((v) => (
              <option key={v} value={v}>
                {t(`events.time.${v}`)}
              </option>
            ))}
          </select>
        </label>
        <label class="field">
          {t('web.events.timezone')}
          <select value={zone} onChange={(e) => setQuery({ timezone: e.currentTarget.value })}>
            {zones.map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </select>
        </label>
      </div>
      {filters ? (
        <>
          <CalendarStrip filters={filters} day={day} />
          {day ? <DayFeed filters={filters} day={day} /> : <Upcoming filters={filters} />}
        </>
      ) : (
        <Loading />
      )}
    </div>
  );
}

function CalendarStrip({ filters, day }: { filters: EventFilters; day: string | null }) {
  const t = useT();
  const [cal, setCal] = useState<Schemas['CalendarResponse'] | null>(null);
  const key = JSON.stringify({ filters, lang: useLang() });
  useEffect(() => {
    const abort = new AbortController();
    setCal(null);
    void api
      .GET('/v1/events/calendar', { params: { query: { ...filters, days: 14 } }, signal: abort.signal })
      .then(({ data }) => data && setCal(data))
      .catch(() => undefined);
    return () => abort.abort();
  }, [key]);
  if (!cal) return <Loading />;
  return (
    <nav class="calendar" aria-label={t('web.events.calendar')} data-timezone={cal.timezone}>
      <Link
        href={hrefTo('/events', withoutDay())}
        class={day ? '' : 'selected'}
        aria-current={day ? undefined : 'true'}
      >
        {t('events.upcoming')}
      </Link>
      {cal.days.map((d) => {
        const today = d.date === cal.today;
        return (
          <Link
            key={d.date}
            href={hrefTo('/events', { ...withoutDay(), day: d.date })}
            class={`day${today ? ' today' : ''}${d.date === day ? ' selected' : ''}${d.count ? '' : ' none'}`}
            aria-current={d.date === day ? 'date' : undefined}
            data-date={d.date}
            data-count={d.count}
          >
            <span class="day-name">{today ? t('events.today') : dayLabel(d.date, WEEKDAY)}</span>
            <span class="day-date">{dayLabel(d.date, DAY_MONTH)}</span>
            <span class="day-count">{d.count}</span>
          </Link>
        );
      })}
    </nav>
  );
}

function withoutDay(): Record<string, string> {
  const q = new URLSearchParams(window.location.search);
  q.delete('day');
  q.delete('lang');
  return Object.fromEntries(q);
}

function usePaged<T>(
  key: string,
  load: (
    cursor: string | undefined,
    signal: AbortSignal,
  ) => Promise<{ data?: { items: T[]; next_cursor?: string | null; has_more?: boolean }; error?: unknown }>,
) {
  const [items, setItems] = useState<T[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const current = useRef(key);
  const fetchPage = (c: string | undefined, signal: AbortSignal, k: string) => {
    setLoading(true);
    load(c, signal)
      .then(({ data, error: failed }) => {
        if (current.current !== k) return;
        setLoading(false);
        if (!data) return setError(errorCode(failed));
        setItems((prev) => (c ? [...prev, ...data.items] : data.items));
        setCursor(data.has_more && data.next_cursor ? data.next_cursor : null);
      })
      .catch(() => undefined);
  };
  useEffect(() => {
    current.current = key;
    const abort = new AbortController();
    setItems([]);
    setCursor(null);
    setError(null);
    fetchPage(undefined, abort.signal, key);
    return () => abort.abort();
  }, [key]);
  return { items, loading, error, more: cursor ? () => fetchPage(cursor, new AbortController().signal, key) : null };
}

function Upcoming({ filters }: { filters: EventFilters }) {
  const t = useT();
  const page = usePaged<Schemas['EventCard']>(JSON.stringify({ filters, lang: useLang() }), (cursor, signal) =>
    api.GET('/v1/events/upcoming', {
      params: { query: { ...filters, limit: 20, ...(cursor ? { cursor } : {}) } },
      signal,
    }),
  );
  return (
    <section class="event-list" aria-label={t('events.upcoming')}>
      <h2 class="visually-hidden">{t('events.upcoming')}</h2>
      <ErrorNote code={page.error} />
      {!page.loading && !page.items.length && <p class="empty">{t('events.no_events')}</p>}
      <ol class="cards">
        {page.items.map((e) => (
          <li key={e.id}>
            <EventCardView event={e} />
          </li>
        ))}
      </ol>
      {page.loading && !page.items.length && <CardSkeletons photo={false} count={4} />}
      {page.loading && <Loading />}
      {page.more && !page.loading && (
        <button type="button" class="more" onClick={page.more}>
          {t('common.show_more')}
        </button>
      )}
    </section>
  );
}

function DayFeed({ filters, day }: { filters: EventFilters; day: string }) {
  const t = useT();
  const page = usePaged<Schemas['EventFeedDay']>(JSON.stringify({ filters, day, lang: useLang() }), (cursor, signal) =>
    api.GET('/v1/events/feed', {
      params: { query: { ...filters, day, limit: 20, ...(cursor ? { cursor } : {}) } },
      signal,
    }),
  );
  const events = page.items.flatMap((d) => d.events as Schemas['EventCard'][]);
  return (
    <section class="event-list" aria-label={dayLabel(day, LONG_DAY)}>
      <h2>{dayLabel(day, LONG_DAY)}</h2>
      <ErrorNote code={page.error} />
      {!page.loading && !events.length && <p class="empty">{t('events.no_events')}</p>}
      <ol class="cards">
        {events.map((e) => (
          <li key={`${e.id}-${e.start_at}`}>
            <EventCardView event={e} />
          </li>
        ))}
      </ol>
      {page.loading && !page.items.length && <CardSkeletons photo={false} count={4} />}
      {page.loading && <Loading />}
      {page.more && !page.loading && (
        <button type="button" class="more" onClick={page.more}>
          {t('common.show_more')}
        </button>
      )}
    </section>
  );
}

export function EventCardView({ event }: { event: Schemas['EventCard'] }) {
  const t = useT();
  return (
    <article class="card event" data-slug={event.slug}>
      <div class="card-body">
        <h3 class="card-title">
          <Link href={hrefTo(`/events/${encodeURIComponent(event.slug)}`)}>{event.title}</Link>
        </h3>
        {event.translated && <p class="translated">{t('listing.translated')}</p>}
        <p class="card-place">{venueLine(event.category.name, event.venue)}</p>
        <p>
          <time dateTime={event.start_at} data-day={event.day}>
            {dayLabel(event.day, SHORT_DAY)} {event.start_time.slice(0, 5)}–{event.end_time.slice(0, 5)}
          </time>{' '}
          · {event.entry === 'free' ? t('events.entry.free') : money(event.price_minor, event.currency)}
        </p>
      </div>
    </article>
  );
}
