import { useEffect, useState } from 'preact/hooks';
import { api, errorCode, type Schemas } from '../../api.ts';
import { dayLabel, money } from '../../format.ts';
import { useLang, useT } from '../../i18n.ts';
import { hrefTo, type RouteProps } from '../../router.ts';
import { Link } from '../../ui/link.tsx';
import { ErrorNote, Loading } from '../../ui/notice.tsx';
import { icsFileName, occurrenceIcs } from './ics.ts';
import { venueLine } from './venue-line.ts';
import { VenueMap } from './venue-map.tsx';

type EventPageBody = Schemas['EventPageResponse'];
type Occurrence = EventPageBody['next_occurrences'][number];

/** Saves one occurrence as an `.ics` file (made here: see `ics.ts`). */
function downloadIcs(event: EventPageBody, o: Occurrence): void {
  const text = occurrenceIcs(
    {
      ...event,
      start_at: o.start_at,
      end_at: o.end_at,
      url: new URL(hrefTo(`/events/${event.slug}`), window.location.href).href,
    },
    { now: new Date(), host: window.location.hostname || 'localhost' },
  );
  const url = URL.createObjectURL(new Blob([text], { type: 'text/calendar;charset=utf-8' }));
  const a = Object.assign(document.createElement('a'), { href: url, download: icsFileName({ ...event, ...o }) });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * One event by its slug (`/v1/events/{slug}`): description, venue with its map, and the next
 * occurrences, each offered as an iCalendar file.
 */
export function EventPage({ params }: RouteProps) {
  const t = useT();
  const lang = useLang();
  const slug = params.slug ?? '';
  const [event, setEvent] = useState<EventPageBody | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setEvent(null);
    setError(null);
    void api.GET('/v1/events/{slug}', { params: { path: { slug } } }).then(({ data, error: failed }) => {
      if (data) setEvent(data);
      else setError(errorCode(failed));
    });
  }, [slug, lang]);
  if (error) return <ErrorNote code={error} />;
  if (!event) return <Loading />;
  return (
    <article class="panel event-page">
      <Link href={hrefTo('/events')} class="back-link">
        ← {t('events.title')}
      </Link>
      <h1>{event.title}</h1>
      {event.translated && <p class="translated">{t('listing.translated')}</p>}
      <p class="card-place">{venueLine(event.category.name, event.venue)}</p>
      <p>
        {event.entry === 'free' ? t('events.entry.free') : money(event.price_minor, event.currency)} ·{' '}
        {t(`events.crowd.${event.crowd}`)}
      </p>
      {event.description && <p class="description">{event.description}</p>}
      <VenueMap point={event.point} label={venueLine('', event.venue)} />
      <h2>{t('web.events.next_dates')}</h2>
      <ul class="occurrences">
        {event.next_occurrences.map((o) => (
          <li key={o.start_at}>
            <time dateTime={o.start_at}>
              {dayLabel(o.day, { weekday: 'long', day: 'numeric', month: 'long' })} {o.start_time.slice(0, 5)}–
              {o.end_time.slice(0, 5)}
            </time>
            <button type="button" class="ics" data-start={o.start_at} onClick={() => downloadIcs(event, o)}>
              {t('web.events.add_to_calendar')}
            </button>
          </li>
        ))}
      </ul>
    </article>
  );
}
