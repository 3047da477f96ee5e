import { useEffect, useRef, useState } from 'preact/hooks';
import { api, errorCode, type Schemas } from '../api.ts';
import { currentLang, useT } from '../i18n.ts';
import { hrefTo, type RouteProps } from '../router.ts';
import { ListingCard } from '../screens/search/card.tsx';
import { Heart } from '../ui/heart.tsx';
import { Link } from '../ui/link.tsx';
import { listingHref } from '../links.ts';
import { ErrorNote, Loading } from '../ui/notice.tsx';

type Favorite = Schemas['FavoriteItem'];
type Card = Schemas['ListingCard'];

/**
 * A favorite as the screen shows it: its listing's card once the listing page's answer is in;
 * `gone` when no published listing has its id any more (404); until then, or when the answer
 * failed otherwise, the favorite's own row (title, kind, date), which still opens the listing.
 */
type Entry = { fav: Favorite; card: Card | null; gone: boolean };

/** Listing pages asked for at once: a page of favorites must not spend the address's rate limit in a burst. */
const CONCURRENCY = 4;

/**
 * The card's fields of a listing page's answer: `GET /v1/listings/{id}` holds every one of them but
 * the feed's own `distance_m` and `related` (the type checks that it does).
 */
function toCard(page: Omit<Card, 'distance_m' | 'related'>): Card {
  const { id, kind, title, place, point, price_minor, currency, price_unit, rating_avg, rating_count } = page;
  const { instant_book, photo, lang, translated, total } = page;
  return {
    id,
    kind,
    title,
    place,
    point,
    price_minor,
    currency,
    price_unit,
    rating_avg,
    rating_count,
    instant_book,
    photo,
    lang,
    translated,
    // Listed here because it is a favorite: the heart starts on.
    is_favorite: true,
    ...(total ? { total } : {}),
  };
}

/** Runs `work` over `items`, at most `limit` at a time, in order of the list. */
async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * The guest's favorites (`GET /v1/me/favorites`), newest first, paged on the cursor, each shown
 * as the feed's card of its listing (`GET /v1/listings/{id}`, a few at a time). The heart removes
 * a favorite from the screen; a listing taken down since shows a row that says so, with the heart.
 */
export function FavoritesScreen({ query }: RouteProps) {
  const t = useT();
  const [items, setItems] = useState<Entry[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const lang = currentLang();
  // The cards convert prices as the feed's do, into the currency the address names, if any.
  const currency = query.get('currency');
  // Answers of an earlier language (or of a screen left) are dropped: the abort ends their requests.
  const run = useRef<AbortController | null>(null);

  const update = (id: number, change: Partial<Entry>) =>
    setItems((prev) => prev && prev.map((e) => (e.fav.listing_id === id ? { ...e, ...change } : e)));
  const remove = (id: number) => setItems((prev) => prev && prev.filter((e) => e.fav.listing_id !== id));

  async function load(from: string | null) {
    const signal = (run.current ??= new AbortController()).signal;
    setLoading(true);
    const list = await api
      .GET('/v1/me/favorites', { params: { query: from ? { cursor: from } : {} }, signal })
      .catch(() => null);
    if (signal.aborted) return;
    setLoading(false);
    const data = list?.data;
    if (!data) {
      setError(errorCode(list?.error));
      return;
    }
    setError(null);
    const fresh = data.items.map((fav) => ({ fav, card: null, gone: false }));
    setItems((prev) => (from ? [...(prev ?? []), ...fresh] : fresh));
    setCursor(data.has_more ? data.next_cursor : null);
    await eachLimited(data.items, CONCURRENCY, async (fav) => {
      const id = fav.listing_id;
      const page = await api.GET('/v1/listings/{id}', { params: { path: { id } }, signal }).catch(() => null);
      if (signal.aborted || !page) return;
      if (page.data) update(id, { card: toCard(page.data) });
      else if (errorCode(page.error) === 'not_found') update(id, { gone: true });
    });
  }
  useEffect(() => {
    run.current = new AbortController();
    setItems(null);
    setCursor(null);
    void load(null);
    return () => run.current?.abort();
  }, [lang]);

  const added = (iso: string) => new Intl.DateTimeFormat(lang, { dateStyle: 'medium' }).format(new Date(iso));
  return (
    <section class="panel account">
      <h1>{t('nav.favorites')}</h1>
      <ErrorNote code={error} />
      {!items && !error && <Loading />}
      {items && items.length === 0 && (
        <p class="empty">
          {t('account.favorites.none')} <Link href={hrefTo('/')}>{t('nav.map')}</Link>
        </p>
      )}
      {items && items.length > 0 && (
        <ol class="cards favorites">
          {items.map(({ fav, card, gone }) => (
            <li key={fav.listing_id}>
              {card ? (
                <ListingCard card={card} currency={currency} onFavorite={(on) => !on && remove(fav.listing_id)} />
              ) : (
                <article class={`card favorite-row${gone ? ' gone' : ''}`} data-id={fav.listing_id}>
                  <div class="photo-none" aria-hidden="true" />
                  <div class="card-body">
                    <h3 class="card-title">
                      {gone ? fav.title : <Link href={listingHref(fav.listing_id)}>{fav.title}</Link>}
                    </h3>
                    <p class="card-place">
                      {t(`kind.${fav.kind}`)} · {t('account.favorites.added', { date: added(fav.added_at) })}
                    </p>
                    {gone && <p class="hint">{t('listing.not_found')}</p>}
                  </div>
                  <Heart listingId={fav.listing_id} initial={true} onChange={(on) => !on && remove(fav.listing_id)} />
                </article>
              )}
            </li>
          ))}
        </ol>
      )}
      {cursor && !loading && (
        <button type="button" class="more" onClick={() => void load(cursor)}>
          {t('common.show_more')}
        </button>
      )}
    </section>
  );
}
