import { useEffect, useRef } from 'preact/hooks';
import type { Schemas } from '../../api.ts';
import { useT } from '../../i18n.ts';
import { ErrorNote, Loading } from '../../ui/notice.tsx';
import { ListingCard } from './card.tsx';

interface Props {
  items: Schemas['ListingCard'][];
  hasMore: boolean;
  loading: boolean;
  error: string | null;
  currency: string | null;
  loadMore(): void;
}

/** The feed: cards, and the next page (`next_cursor`) when the end of the list comes into view. */
export function Feed({ items, hasMore, loading, error, currency, loadMore }: Props) {
  const t = useT();
  const sentinel = useRef<HTMLDivElement>(null);
  const more = useRef(loadMore);
  more.current = loadMore;
  useEffect(() => {
    const el = sentinel.current;
    if (!el) return;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) more.current();
    });
    io.observe(el);
    return () => io.disconnect();
  }, [hasMore]);

  return (
    <section class="feed" aria-label={t('web.feed_label')} aria-busy={loading}>
      <h2 class="visually-hidden">{t('web.feed_label')}</h2>
      <ErrorNote code={error} />
      {!loading && !error && items.length === 0 && <p class="empty">{t('search.no_results')}</p>}
      <ol class="cards">
        {items.map((c) => (
          <li key={c.id}>
            <ListingCard card={c} currency={currency} />
          </li>
        ))}
      </ol>
      {loading && <Loading />}
      {hasMore && !loading && (
        <div ref={sentinel}>
          <button type="button" class="more" onClick={loadMore}>
            {t('common.show_more')}
          </button>
        </div>
      )}
    </section>
  );
}
