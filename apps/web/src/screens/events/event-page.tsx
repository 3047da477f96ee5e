import { useEffect, useState } from 'preact/hooks';
import { api, errorCode, type Schemas } from '../../api.ts';
import { dayLabel, money } from '../../format.ts';
import { useLang, useT } from '../../i18n.ts';
import { hrefTo, type RouteProps } from '../../router.ts';
import { Link } from '../../ui/link.tsx';
import { ErrorNote, Loading } from '../../ui/notice.tsx';
import { venueLine } from './venue-line.ts';

/** One event by its slug (`/v1/events/{slug}`): description, venue and the next occurrences. */
export function EventPage({ params }: RouteProps) {
  const t = useT();
  const lang = useLang();
  const slug = params.slug ?? '';
  const [event, setEvent] = useState<Schemas['EventPageResponse'] | null>(null);
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
      <h2>{t('web.events.next_dates')}</h2>
      <ul>
        {event.next_occurrences.map((o) => (
          <li key={o.start_at}>
            <time dateTime={o.start_at}>
              {dayLabel(o.day, { weekday: 'long', day: 'numeric', month: 'long' })} {o.start_time.slice(0, 5)}–
              {o.end_time.slice(0, 5)}
            </time>
          </li>
        ))}
      </ul>
    </article>
  );
}
