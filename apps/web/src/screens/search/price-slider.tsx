import { useEffect, useState } from 'preact/hooks';
import { api, type Schemas } from '../../api.ts';
import { money } from '../../format.ts';
import { useT } from '../../i18n.ts';
import { positionOf, priceAt, type Kind } from './filters.ts';

const STEPS = 240;

interface Props {
  kind: Kind;
  currency: string | null;
  min: number | null;
  max: number | null;
  onChange(min: number | null, max: number | null): void;
}

/**
 * The price filter over `/v1/search/price-range`: 24 histogram bars on the quadratic scale of the
 * spec (a handle at position p is the price `max_minor · p²`), two handles, and the amounts they
 * stand for. The ends of the scale mean "no bound".
 */
export function PriceSlider({ kind, currency, min, max, onChange }: Props) {
  const t = useT();
  const [range, setRange] = useState<Schemas['PriceRangeResponse'] | null>(null);
  const top = range?.max_minor ?? 0;
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

  if (!range || !range.histogram.length || !top) return null;
  const cur = range.currency ?? currency ?? 'THB';
  const peak = Math.max(1, ...range.histogram);
  const commit = (l: number, h: number) =>
    onChange(l <= 0 ? null : priceAt(l / STEPS, top), h >= STEPS ? null : priceAt(h / STEPS, top));
  const segLo = (lo / STEPS) * 24;
  const segHi = (hi / STEPS) * 24;

  return (
    <fieldset class="price">
      <legend>{t('search.filters.price')}</legend>
      <div class="histogram" aria-hidden="true">
        {range.histogram.map((n, i) => (
          <span
            key={i}
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
      <p class="price-values">
        {money(priceAt(lo / STEPS, top), cur)} – {money(priceAt(hi / STEPS, top), cur)}
        {hi >= STEPS ? '+' : ''}
      </p>
    </fieldset>
  );
}
