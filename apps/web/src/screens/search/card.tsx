import type { Schemas } from '../../api.ts';
import { priceUnit, shownPrice } from '../../format.ts';
import { useT } from '../../i18n.ts';
import { useLocation } from '../../router.ts';
import { Heart } from '../../ui/heart.tsx';
import { Link } from '../../ui/link.tsx';
import { listingHref } from '../../links.ts';

/**
 * A listing card of the feed: photo, title (with the translation marker), place, price, rating,
 * heart. The photo and the title open the listing's page; `onFavorite` hears the heart's new state.
 */
export function ListingCard({
  card,
  currency,
  onFavorite,
}: {
  card: Schemas['ListingCard'];
  currency: string | null;
  onFavorite?: (on: boolean) => void;
}) {
  const t = useT();
  const href = listingHref(card.id, useLocation().query);
  const price = shownPrice(card.price_minor, card.currency, currency);
  const total = card.total ? shownPrice(card.total.total_minor, card.total.currency, currency) : null;
  // An amount converted from the listing's currency is marked approximate once: "≈", explained in its title.
  const approximate = price.approximate ? t('booking.price_approximate') : undefined;
  return (
    <article class="card" data-id={card.id} data-kind={card.kind}>
      <Link href={href} class="card-photo" tabIndex={-1} aria-hidden="true">
        {card.photo ? (
          <img
            src={card.photo.thumb}
            alt=""
            loading="lazy"
            width={480}
            height={320}
            onError={(e) =>
              e.currentTarget.replaceWith(Object.assign(document.createElement('div'), { className: 'photo-none' }))
            }
          />
        ) : (
          <div class="photo-none" aria-hidden="true" />
        )}
      </Link>
      <div class="card-body">
        <h3 class="card-title" lang={card.lang}>
          <Link href={href}>{card.title}</Link>
        </h3>
        {card.translated && (
          <p class="translated" title={t('listing.translated')}>
            {t('listing.translated')}
          </p>
        )}
        <p class="card-place">
          {t(`kind.${card.kind}`)} · {card.place.name}
        </p>
        {total && card.total && (
          <p class="card-total" title={approximate}>
            {t('web.price.total', { total: total.text, count: card.total.nights })}
          </p>
        )}
        <p class="card-price">
          <span title={approximate}>{price.text}</span> <span class="unit">/ {priceUnit(card.price_unit)}</span>
        </p>
        {card.rating_avg !== null && (
          <p class="card-rating">
            ★ {card.rating_avg.toFixed(1)} ({card.rating_count})
          </p>
        )}
      </div>
      <Heart listingId={card.id} initial={card.is_favorite ?? false} onChange={onFavorite} />
    </article>
  );
}
