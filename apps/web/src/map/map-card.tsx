import type { Schemas } from '../api.ts';
import { priceUnit, shownPrice } from '../format.ts';
import { useT } from '../i18n.ts';
import { listingHref } from '../links.ts';
import { Link } from '../ui/link.tsx';
import type { MapAnswer } from '../screens/search/use-search.ts';

type Point = MapAnswer['points'][number];

/**
 * The small card of the pins the guest tapped, over the map: each listing's title and place when
 * the feed has its card (else its kind), its price as the pins show it, and the link to its page.
 */
export function MapCard({
  ids,
  points,
  cards,
  currency,
  onClose,
}: {
  ids: number[];
  points: Point[];
  cards: Array<Schemas['ListingCard']>;
  currency: string | null;
  onClose(): void;
}) {
  const t = useT();
  const shown = ids.slice(0, 5).flatMap((id) => {
    const point = points.find((p) => p.id === id);
    const card = cards.find((c) => c.id === id);
    return point || card ? [{ id, point, card }] : [];
  });
  if (!shown.length) return null;
  return (
    <aside class="map-card" aria-label={t('web.map.marker')} onKeyDown={(e) => e.key === 'Escape' && onClose()}>
      <button type="button" class="sheet-close" aria-label={t('common.close')} onClick={onClose}>
        ×
      </button>
      <ul>
        {shown.map(({ id, point, card }) => {
          const kind = card?.kind ?? point!.kind;
          const price = card
            ? shownPrice(card.price_minor, card.currency, currency)
            : shownPrice(point!.price_minor, point!.currency, currency);
          return (
            <li key={id} data-id={id}>
              {card?.photo && <img src={card.photo.thumb} alt="" width={96} height={64} />}
              <div>
                <Link href={listingHref(id)} class="map-card-title" lang={card?.lang}>
                  {card?.title ?? `${t(`kind.${kind}`)} · ${t('web.map.open')}`}
                </Link>
                <p>
                  {t(`kind.${kind}`)}
                  {card ? ` · ${card.place.name}` : ''}
                </p>
                <p class="map-card-price" title={price.approximate ? t('booking.price_approximate') : undefined}>
                  {price.text}
                  {card && ` / ${priceUnit(card.price_unit)}`}
                </p>
              </div>
            </li>
          );
        })}
      </ul>
    </aside>
  );
}
