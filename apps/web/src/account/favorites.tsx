import { useEffect, useState } from 'preact/hooks';
import { api, errorCode, type Schemas } from '../api.ts';
import { currentLang, useT } from '../i18n.ts';
import { hrefTo, type RouteProps } from '../router.ts';
import { Heart } from '../ui/heart.tsx';
import { Link } from '../ui/link.tsx';
import { listingHref } from '../links.ts';
import { ErrorNote, Loading } from '../ui/notice.tsx';

type Favorite = Schemas['FavoriteItem'];

/** The guest's favorites (`GET /v1/me/favorites`), newest first, paged on the cursor. */
export function FavoritesScreen(_: RouteProps) {
  const t = useT();
  const [items, setItems] = useState<Favorite[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const lang = currentLang();

  async function load(from: string | null) {
    const { data, error: failed } = await api.GET('/v1/me/favorites', {
      params: { query: { limit: 24, ...(from ? { cursor: from } : {}) } },
    });
    if (!data) {
      setError(errorCode(failed));
      return;
    }
    setError(null);
    setItems((prev) => (from ? [...(prev ?? []), ...data.items] : data.items));
    setCursor(data.has_more ? data.next_cursor : null);
  }
  useEffect(() => {
    void load(null);
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
        <ul class="favorites">
          {items.map((f) => (
            <li key={f.listing_id} data-id={f.listing_id}>
              <Link class="fav-title" href={listingHref(f.listing_id)}>
                {f.title}
              </Link>
              <small class="hint">
                {t(`kind.${f.kind}`)} · {t('account.favorites.added', { date: added(f.added_at) })}
              </small>
              <Heart listingId={f.listing_id} initial={true} />
            </li>
          ))}
        </ul>
      )}
      {cursor && (
        <button type="button" onClick={() => void load(cursor)}>
          {t('common.show_more')}
        </button>
      )}
    </section>
  );
}
