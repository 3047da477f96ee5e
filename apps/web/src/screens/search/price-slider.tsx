import { useEffect, useState } from 'preact/hooks';
import { api, type Schemas } from '../../api.ts';
import { displayCurrency, money, priceUnit } from '../../format.ts';
import { useT } from '../../i18n.ts';
import { positionOf, priceAt, type Kind } from './filters.ts';

const STEPS = 240;

interface Props {
  kind: Kind;
  currency: string | null;
  /** The price unit of the URL (`price_unit`): the scale the limits are on. */
  unit: string | null;
  min: number | null;
  max: number | null;
  /** New limits, with the unit they are on (a limit without a unit would compare nights with months). */
  onChange(patch: { price_min: number | null; price_max: number | null; price_unit: string | null }): void;
}

/**
 * The price filter over `/v1/search/price-range`: the prices of one unit (a night, a month, a
 * person …) on their own scale, 24 histogram bars on the quadratic scale of the spec (a handle at
 * position p is the price `max_minor · p²`), two handles, and the amounts they stand for. The
 * ends of the scale mean "no bound". Prices per night and per month are never on one scale: with
 * several units the guest picks one, and the limits go with it (`price_unit`).
 */
export function PriceSlider({ kind, currency, unit, min, max, onChange }: Props) {
  const t = useT();
  const [range, setRange] = useState<Schemas['PriceRangeResponse'] | null>(null);
  const units = range?.units ?? [];
  const scale = units.find((u) => u.price_unit === unit) ?? units[0] ?? null;
  const top = scale?.max_minor ?? 0;
  const [lo, setLo] = useState(0);
  const [hi, setHi] = useState(STEPS);

  useEffect(() => {
    const abort = new AbortController();
    void api
      .GET('/v1/search/price-range', {
        params: { query: { ...(kind !== 'all' ? { kind } : {}), ...(currency ? { currency } : {}) } },
        signal: abort.signal,
      })
      .then(({ data }) => data && setRange(data))
      .catch(() => undefined);
    return () => abort.abort();
  }, [kind, currency]);

  useEffect(() => {
    setLo(min === null ? 0 : Math.round(positionOf(min, top) * STEPS));
    setHi(max === null ? STEPS : Math.round(positionOf(max, top) * STEPS));
  }, [min, max, top]);

  if (!range || !scale || !scale.histogram.length || !top) return null;
  const cur = range.currency ?? displayCurrency(currency);
  // Amounts in a currency other than the base one are converted: approximate, said once.
  const approximate = cur !== displayCurrency(null);
  const peak = Math.max(1, ...scale.histogram);
  const commit = (l: number, h: number) => {
    const price_min = l <= 0 ? null : priceAt(l / STEPS, top);
    const price_max = h >= STEPS ? null : priceAt(h / STEPS, top);
    onChange({ price_min, price_max, price_unit: price_min !== null || price_max !== null ? scale.price_unit : unit });
  };
  const segLo = (lo / STEPS) * 24;
  const segHi = (hi / STEPS) * 24;

  return (
    <fieldset class="price" data-unit={scale.price_unit}>
      <legend>
        {t('search.filters.price')} / {priceUnit(scale.price_unit)}
      </legend>
      {units.length > 1 && (
        <div class="price-units" role="radiogroup" aria-label={t('web.filters.price_unit')}>
          {units.map((u) => (
            <label key={u.price_unit} class="check">
              <input
                type="radio"
                name="price_unit"
                value={u.price_unit}
                checked={u.price_unit === scale.price_unit}
                // Another scale: the limits of this one mean nothing there.
                onChange={() => onChange({ price_min: null, price_max: null, price_unit: u.price_unit })}
              />
              {priceUnit(u.price_unit)} ({u.count})
            </label>
          ))}
        </div>
      )}
      <div class="histogram" aria-hidden="true">
        {scale.histogram.map((n, i) => (
          <span
            key={i}
            data-count={n}
            class={i + 1 > segLo && i < segHi ? 'in' : ''}
            style={{ height: `${Math.max(2, (n / peak) * 100)}%` }}
          />
        ))}
      </div>
      <label>
        <span class="visually-hidden">{t('web.price.min')}</span>
        <input
          type="range"
          name="price_min"
          min={0}
          max={STEPS}
          value={lo}
          aria-valuetext={money(priceAt(lo / STEPS, top), cur)}
          onInput={(e) => setLo(Math.min(Number(e.currentTarget.value), hi))}
          onChange={(e) => commit(Math.min(Number(e.currentTarget.value), hi), hi)}
        />
      </label>
      <label>
        <span class="visually-hidden">{t('web.price.max')}</span>
        <input
          type="range"
          name="price_max"
          min={0}
          max={STEPS}
          value={hi}
          aria-valuetext={money(priceAt(hi / STEPS, top), cur)}
          onInput={(e) => setHi(Math.max(Number(e.currentTarget.value), lo))}
          onChange={(e) => commit(lo, Math.max(Number(e.currentTarget.value), lo))}
        />
      </label>
      <p class="price-values" title={approximate ? t('booking.price_approximate') : undefined}>
        {approximate ? '≈ ' : ''}
        {money(priceAt(lo / STEPS, top), cur)} – {money(priceAt(hi / STEPS, top), cur)}
        {hi >= STEPS ? '+' : ''}
      </p>
    </fieldset>
  );
}
