import { useEffect, useMemo, useState } from 'preact/hooks';
import type { paths } from '@guest/client';
import { api, errorCode } from '../../api.ts';
import { dayLabel, money, priceUnit } from '../../format.ts';
import { useLang, useT } from '../../i18n.ts';
import { MapView } from '../../map/map-view.tsx';
import { goBack, hrefTo, setQuery, type RouteProps } from '../../router.ts';
import { Heart } from '../../ui/heart.tsx';
import { ErrorNote, Loading } from '../../ui/notice.tsx';
import { Calendar } from './calendar.tsx';
import { Gallery } from './gallery.tsx';

type PageQuery = NonNullable<paths['/v1/listings/{id}']['get']['parameters']['query']>;
const getListing = (id: number, query: PageQuery, signal?: AbortSignal) =>
  api.GET('/v1/listings/{id}', { params: { path: { id }, query }, ...(signal ? { signal } : {}) });
type Page = NonNullable<Awaited<ReturnType<typeof getListing>>['data']>;
type Availability = NonNullable<Page['availability']>;

/**
 * The listing page (`/listings/:id`, `GET /v1/listings/{id}`): gallery, description, details,
 * amenities, map, the calendar of the coming days and the total for the dates chosen, the favorite
 * heart and a link to share. The dates, guests and currency are in the URL, so a shared link opens
 * the same stay; back returns to the view it was opened from (the feed where it was).
 */
export function ListingPage({ params, query }: RouteProps) {
  const t = useT();
  const lang = useLang();
  const id = Number(params.id);
  const currency = query.get('currency') ?? undefined;
  const dateFrom = query.get('date_from') ?? '';
  const dateTo = query.get('date_to') ?? '';
  const guests = Number(query.get('guests') ?? '1') || 1;
  const [page, setPage] = useState<Page | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setError(null);
    if (!Number.isInteger(id) || id < 1) {
      setError('not_found');
      return;
    }
    void getListing(id, currency ? { currency } : {}).then(({ data, error: failed }) => {
      if (data) setPage(data);
      else setError(errorCode(failed));
    });
  }, [id, lang, currency]);

  if (error) {
    return (
      <section class="panel narrow">
        <ErrorNote code={error} />
        {error === 'not_found' && <p>{t('listing.not_found')}</p>}
      </section>
    );
  }
  if (!page || page.id !== id) return <Loading />;
  const path = page.place_path.map((p) => p.name).join(' › ');
  return (
    <article class="panel listing-page" data-id={page.id}>
      <div class="listing-bar">
        <button type="button" class="back-link" onClick={() => goBack(hrefTo('/'))}>
          ← {t('common.back')}
        </button>
        <ShareButton />
        <Heart listingId={page.id} initial={page.is_favorite ?? false} />
      </div>
      <Gallery photos={page.photos} title={page.title} />
      <div class="listing-columns">
        <div class="listing-main">
          <h1 lang={page.lang}>{page.title}</h1>
          {page.translated && <p class="translated">{t('listing.translated')}</p>}
          <p class="card-place">
            {t(`kind.${page.kind}`)} · {path}
          </p>
          {page.rating_avg !== null && (
            <p class="card-rating">
              ★ {page.rating_avg.toFixed(1)} · {t('listing.reviews_count', { count: page.rating_count })}
            </p>
          )}
          <section>
            <h2>{t('listing.about')}</h2>
            <p class="description" lang={page.description_lang}>
              {page.description}
            </p>
          </section>
          {page.attributes.length > 0 && (
            <section>
              <h2>{t('listing.details')}</h2>
              <dl class="attributes">
                {page.attributes.map((a) => (
                  <div key={a.code}>
                    <dt>{a.name}</dt>
                    <dd>{attributeValue(a, t)}</dd>
                  </div>
                ))}
              </dl>
            </section>
          )}
          {page.amenities.length > 0 && (
            <section>
              <h2>{t('listing.amenities')}</h2>
              <ul class="amenities">
                {page.amenities.map((a) => (
                  <li key={a.code}>{a.name}</li>
                ))}
              </ul>
            </section>
          )}
          <section>
            <h2>{t('listing.location')}</h2>
            {page.location.mode !== 'exact' && <p class="hint">{t('listing.location_approximate')}</p>}
            <ListingMap page={page} currency={currency ?? null} />
          </section>
        </div>
        <aside class="listing-side">
          <PriceBox page={page} dateFrom={dateFrom} dateTo={dateTo} guests={guests} currency={currency} />
          <section>
            <h2>{t('listing.availability')}</h2>
            <Calendar
              window={page.calendar}
              blocked={page.blocked}
              from={dateFrom}
              to={dateTo}
              onPick={(from, to) => setQuery({ date_from: from, date_to: to }, { replace: true })}
            />
            <p class="hint">{t('listing.calendar_hint')}</p>
          </section>
        </aside>
      </div>
    </article>
  );
}

function attributeValue(a: Page['attributes'][number], t: ReturnType<typeof useT>): string {
  if (a.flag !== null) return a.flag ? t('listing.yes') : t('listing.no');
  if (a.number !== null) return String(a.number);
  return a.code_names.join(', ');
}

/** The price, the dates and guests, and what the API says of that stay (`availability`). */
function PriceBox(props: {
  page: Page;
  dateFrom: string;
  dateTo: string;
  guests: number;
  currency: string | undefined;
}) {
  const { page, dateFrom, dateTo, guests, currency } = props;
  const t = useT();
  const [stay, setStay] = useState<{ key: string; answer: Availability | null; error: string | null } | null>(null);
  const key = `${page.id}|${dateFrom}|${dateTo}|${guests}|${currency ?? ''}`;
  useEffect(() => {
    if (!dateFrom) return;
    const abort = new AbortController();
    const query = {
      date_from: dateFrom,
      ...(dateTo ? { date_to: dateTo } : {}),
      guests,
      ...(currency ? { currency } : {}),
    };
    void getListing(page.id, query, abort.signal)
      .then(({ data, error }) =>
        setStay({ key, answer: data?.availability ?? null, error: data ? null : errorCode(error) }),
      )
      .catch(() => undefined);
    return () => abort.abort();
  }, [key]);
  const shown = stay?.key === key ? stay : null;
  const a = shown?.answer;
  return (
    <section class="price-box" aria-live="polite">
      <p class="listing-price">
        <strong>{money(page.price.amount_minor, page.price.currency)}</strong>{' '}
        <span class="unit">/ {priceUnit(page.price.unit)}</span>
        {page.converted && page.converted.currency !== page.price.currency && (
          <span class="approx" title={t('booking.price_approximate')}>
            {' '}
            ≈ {money(page.converted.amount_minor, page.converted.currency)} ({t('common.approximately')})
          </span>
        )}
      </p>
      <div class="stay-fields">
        <label>
          {t('booking.check_in')}
          <input
            type="date"
            name="date_from"
            value={dateFrom}
            min={page.calendar.from}
            max={page.calendar.to}
            onChange={(e) => setQuery({ date_from: e.currentTarget.value || null }, { replace: true })}
          />
        </label>
        <label>
          {t('booking.check_out')}
          <input
            type="date"
            name="date_to"
            value={dateTo}
            min={dateFrom || page.calendar.from}
            max={page.calendar.to}
            onChange={(e) => setQuery({ date_to: e.currentTarget.value || null }, { replace: true })}
          />
        </label>
        <label>
          {t('booking.guests')}
          <input
            type="number"
            name="guests"
            min={1}
            max={500}
            value={guests}
            onInput={(e) => setQuery({ guests: e.currentTarget.value || null }, { replace: true })}
          />
        </label>
      </div>
      {!dateFrom && <p class="hint">{t('listing.pick_dates')}</p>}
      {dateFrom && shown?.error && <ErrorNote code={shown.error} />}
      {dateFrom && !shown && <Loading />}
      {a && (
        <div class={`stay-answer ${a.free ? 'free' : 'taken'}`} data-free={String(a.free)}>
          <p>
            {a.free
              ? t('listing.free')
              : a.reason === 'over_capacity'
                ? t('listing.over_capacity', { count: a.capacity ?? 0 })
                : t('listing.blocked')}
          </p>
          <p class="stay-total">
            {t('booking.total')}: <strong>{money(a.total_minor, a.currency)}</strong>
            {a.converted_total && a.converted_total.currency !== a.currency && (
              <span class="approx" title={t('booking.price_approximate')}>
                {' '}
                ≈ {money(a.converted_total.amount_minor, a.converted_total.currency)} ({t('common.approximately')})
              </span>
            )}
          </p>
          <p class="hint">
            {dayLabel(a.date_from, { day: 'numeric', month: 'short' })} –{' '}
            {dayLabel(a.date_to, { day: 'numeric', month: 'short' })} · {t('booking.nights', { count: a.nights })}
          </p>
        </div>
      )}
    </section>
  );
}

/** Copies the page's address (dates, guests and currency with it) to share it. */
function ShareButton() {
  const t = useT();
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      class="share"
      onClick={() => {
        // No clipboard outside a secure origin (plain http on an address): the address to copy by hand.
        if (!('clipboard' in navigator)) {
          window.prompt(t('listing.share'), window.location.href);
          return;
        }
        void navigator.clipboard
          .writeText(window.location.href)
          .then(() => setCopied(true))
          .catch(() => setCopied(false));
      }}
    >
      {copied ? t('listing.link_copied') : t('listing.share')}
    </button>
  );
}

/** The listing on the map: its point, or for `city_only` the middle of its place's area and no marker. */
function ListingMap({ page, currency }: { page: Page; currency: string | null }) {
  const point = page.location.point;
  const area = page.location.area;
  const view = useMemo(() => {
    if (point) return { zoom: 14, lat: point.lat, lon: point.lon };
    const [minLon, minLat, maxLon, maxLat] = area ?? [];
    if (minLon !== undefined && minLat !== undefined && maxLon !== undefined && maxLat !== undefined) {
      return { zoom: 12, lat: (minLat + maxLat) / 2, lon: (minLon + maxLon) / 2 };
    }
    return null;
  }, [page.id]);
  if (!view) return null;
  const data = {
    clusters: [],
    points: point
      ? [
          {
            id: page.id,
            kind: page.kind,
            lat: point.lat,
            lon: point.lon,
            price_minor: page.price_minor,
            currency: page.currency,
          },
        ]
      : [],
    truncated: false,
    total: point ? 1 : 0,
  };
  return (
    <div class="listing-map">
      <MapView view={view} data={data} currency={currency} start={true} onMove={() => undefined} />
    </div>
  );
}
