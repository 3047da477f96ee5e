import { Fragment } from 'preact';
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
import type { Schemas } from '../../api.ts';
import { useT } from '../../i18n.ts';
import { ErrorNote, Loading } from '../../ui/notice.tsx';
import { CardSkeletons } from '../../ui/skeleton.tsx';
import { ListingCard } from './card.tsx';
import { matchedPart } from './feed-notes.ts';
import { keepFeedScroll } from './use-search.ts';

interface Props {
  /** The view the cards belong to (`useSearch`'s key): its scroll position is kept for coming back. */
  viewKey: string;
  /** Scroll to this once the cards are shown: the kept position of a view come back to. */
  restoredTop: number | null;
  items: Schemas['ListingCard'][];
  hasMore: boolean;
  loading: boolean;
  /** The cards shown are of the last view while this one loads. */
  stale: boolean;
  error: string | null;
  /** The fields a refused search named: the guest is sent to them rather than asked to retry. */
  invalid: boolean;
  /** The failure was of a next page (the cards above are current). */
  failedMore: boolean;
  currency: string | null;
  /** The text searched, and its words no result has (`unmatched_terms`). */
  q: string | null;
  unmatched: string[];
  loadMore(): void;
  retry(): void;
  /** The card the pointer, a tap or the focus is on (null when it leaves the cards): its pin stands out. */
  onHover?(id: number | null): void;
  /** Opens the filters, where the fields a refused search named are marked. */
  fixFilters(): void;
}

/** The feed: cards, and the next page (`next_cursor`) when the end of the list comes into view. */
export function Feed(props: Props) {
  const { items, hasMore, loading, error, currency, loadMore } = props;
  const t = useT();
  const sentinel = useRef<HTMLDivElement>(null);
  const section = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    if (props.restoredTop !== null && section.current) section.current.scrollTop = props.restoredTop;
  }, [props.restoredTop]);
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
  }, [hasMore, error]);

  const failure = error && (
    <div class="feed-error">
      <ErrorNote code={error} />
      {props.invalid ? (
        <button type="button" onClick={props.fixFilters}>
          {t('search.filters.title')}
        </button>
      ) : (
        <button type="button" class="retry" onClick={props.retry}>
          {t('common.retry')}
        </button>
      )}
    </div>
  );

  return (
    <section
      ref={section}
      class="feed"
      aria-label={t('web.feed_label')}
      aria-busy={loading}
      onScroll={(e) => keepFeedScroll(props.viewKey, e.currentTarget.scrollTop)}
    >
      <h2 class="visually-hidden">{t('web.feed_label')}</h2>
      {!props.failedMore && failure}
      {!loading && !error && items.length === 0 && <p class="empty">{t('search.no_results')}</p>}
      {!loading && !error && items.length > 0 && props.q && props.unmatched.length > 0 && (
        <p class="showing-for">
          {t('search.showing_for', {
            query: matchedPart(props.q, props.unmatched),
            terms: props.unmatched.join(' '),
          })}
        </p>
      )}
      {/* While the next view loads, the cards of the last one stay, dimmed: not shown as its answer. */}
      <ol
        class={`cards${props.stale ? ' stale' : ''}`}
        onMouseOver={(e) => props.onHover?.(cardId(e.target))}
        // A tap on a phone has no hover: the card tapped lights its pin up until another is.
        onPointerDown={(e) => e.pointerType !== 'mouse' && props.onHover?.(cardId(e.target))}
        onMouseLeave={() => props.onHover?.(null)}
        onFocusIn={(e) => props.onHover?.(cardId(e.target))}
        onFocusOut={() => props.onHover?.(null)}
      >
        {items.map((c, i) => (
          <Fragment key={c.id}>
            {/* The listings related to the text, after every exact match (`related`). */}
            {c.related && !items[i - 1]?.related && (
              <li class="related-divider">
                <h3>{t('search.related')}</h3>
              </li>
            )}
            <li>
              <ListingCard card={c} currency={currency} />
            </li>
          </Fragment>
        ))}
      </ol>
      {loading && items.length === 0 && <CardSkeletons />}
      {loading && <Loading />}
      {props.failedMore && failure}
      {hasMore && !loading && !error && (
        <div ref={sentinel}>
          <button type="button" class="more" onClick={loadMore}>
            {t('common.show_more')}
          </button>
        </div>
      )}
    </section>
  );
}

/** The listing of the card an event happened in (null outside a card). */
function cardId(target: EventTarget | null): number | null {
  const card = target instanceof Element ? target.closest('.card[data-id]') : null;
  return card ? Number(card.getAttribute('data-id')) : null;
}
