import { useEffect, useState } from 'preact/hooks';
import { api, type Schemas } from '../../api.ts';
import type { FieldErrors } from '../../account/forms.tsx';
import { useLang, useT } from '../../i18n.ts';
import { setQuery } from '../../router.ts';
import { appliesTo, FILTERS, kindOf, type FilterName, type Kind } from './filters.ts';
import { PriceSlider } from './price-slider.tsx';
import { displayCurrency } from '../../format.ts';
import { fxRatesOf } from '../../config.ts';
import { convertLimits } from '../../fx.ts';

const SORTS = ['relevance', 'price_asc', 'price_desc', 'rating', 'new'];

const applies = (name: FilterName, kind: Kind) => appliesTo(name, kind);

/**
 * Every filter of the spec's table for the chosen kind. Each change goes straight into the URL
 * (which the map, the feed and the count follow); the "show N results" button closes the panel.
 */
export function FiltersPanel({
  query,
  count,
  invalid,
  onClose,
}: {
  query: URLSearchParams;
  count: number | string;
  /** Fields the API refused in the last search (`date_to` …), marked where they are. */
  invalid: FieldErrors;
  onClose(): void;
}) {
  const t = useT();
  const lang = useLang();
  const kind = kindOf(query);
  const set = (name: string, value: string | number | boolean | null | string[]) =>
    setQuery({ [name]: value }, { replace: true });
  const list = (name: string) => (query.get(name) ?? '').split(',').filter(Boolean);
  const toggleIn = (name: string, code: string) => {
    const cur = list(name);
    set(name, cur.includes(code) ? cur.filter((c) => c !== code) : [...cur, code]);
  };

  const limit = (name: string) => (query.get(name) ? Number(query.get(name)) : null);
  const limits = { price_min: limit('price_min'), price_max: limit('price_max') };

  const dateFrom = query.get('date_from') ?? '';
  const dateTo = query.get('date_to') ?? '';
  // Checked here as the API checks it, so the two fields are marked as soon as they disagree;
  // whatever else the API refused in them is marked too.
  const datesWrong = Boolean(dateFrom && dateTo) && dateTo < dateFrom;
  const datesRefused = 'date_from' in invalid || 'date_to' in invalid;

  const [currencies, setCurrencies] = useState<Schemas['CurrencyResponse'][]>([]);
  const [categories, setCategories] = useState<Schemas['CategoryResponse'][]>([]);
  const [amenities, setAmenities] = useState<Schemas['AmenityGroupResponse'][]>([]);
  const [values, setValues] = useState<Schemas['FilterValuesResponse'] | null>(null);
  useEffect(() => {
    void api.GET('/v1/currencies').then(({ data }) => setCurrencies(data ?? []));
  }, [lang]);
  useEffect(() => {
    setCategories([]);
    setAmenities([]);
    setValues(null);
    // The codes the catalog really uses for this kind (property types, vehicles, diets …), with counts.
    void api
      .GET('/v1/search/filter-values', { params: { query: { kind } } })
      .then(({ data }) => setValues(data ?? null));
    if (kind !== 'all' && kind !== 'stay')
      void api.GET('/v1/categories', { params: { query: { kind } } }).then(({ data }) => setCategories(data ?? []));
    if (kind === 'stay' || kind === 'experience' || kind === 'service')
      void api.GET('/v1/amenities', { params: { query: { kind } } }).then(({ data }) => setAmenities(data ?? []));
  }, [kind, lang]);

  const num = (name: string, labelKey: string, min = 0) => (
    <label class={`field${name in invalid ? ' invalid' : ''}`}>
      {t(labelKey)}
      <NumberField
        name={name}
        min={min}
        invalid={name in invalid}
        value={query.get(name) ?? ''}
        onCommit={(text) => set(name, text ? Math.max(min, Math.floor(Number(text))) : null)}
      />
    </label>
  );
  const flag = (name: string, labelKey: string) => (
    <label class="check">
      <input
        type="checkbox"
        name={name}
        checked={query.get(name) === 'true'}
        onChange={(e) => set(name, e.currentTarget.checked ? true : null)}
      />
      {t(labelKey)}
    </label>
  );
  const choices = (name: string, labelKey: string, codes: Array<{ code: string; label: string }>) => (
    <fieldset class="choices">
      <legend>{t(labelKey)}</legend>
      {codes.map((c) => (
        <label class="check" key={c.code}>
          <input
            type="checkbox"
            name={name}
            value={c.code}
            checked={list(name).includes(c.code)}
            onChange={() => toggleIn(name, c.code)}
          />
          {c.label}
        </label>
      ))}
    </fieldset>
  );
  /** A choice of one; `none` names the empty choice (the API's default), "any" unless given. */
  const select = (name: string, labelKey: string, codes: Array<{ code: string; label: string }>, none?: string) => (
    <label class="field">
      {t(labelKey)}
      <select name={name} value={query.get(name) ?? ''} onChange={(e) => set(name, e.currentTarget.value || null)}>
        <option value="">{none ?? t('web.filters.any')}</option>
        {codes.map((c) => (
          <option key={c.code} value={c.code}>
            {c.label}
          </option>
        ))}
      </select>
    </label>
  );
  const label = (key: string, code: string) => {
    const text = t(key);
    return text === key ? code.replace(/_/g, ' ') : text;
  };
  const coded = (prefix: string, codes: string[]) =>
    codes.map((code) => ({ code, label: label(`${prefix}.${code}`, code) }));
  /** The catalog's values of a filter, named from the dictionary, with how many listings have each. */
  const offered = (name: keyof Schemas['FilterValuesResponse'], prefix: string) =>
    (values?.[name] ?? []).map((v) => ({
      code: v.code,
      label: `${label(`${prefix}.${v.code}`, v.code)} (${v.count})`,
    }));

  return (
    <aside class="filters" aria-label={t('search.filters.title')} onKeyDown={(e) => e.key === 'Escape' && onClose()}>
      <div class="sheet-head">
        <h2>{t('search.filters.title')}</h2>
        <button type="button" class="sheet-close" aria-label={t('common.close')} onClick={onClose}>
          ×
        </button>
      </div>
      <PriceSlider
        kind={kind}
        currency={query.get('currency')}
        unit={query.get('price_unit')}
        min={limits.price_min}
        max={limits.price_max}
        onChange={(patch) => setQuery(patch, { replace: true })}
      />
      <label class="field">
        {t('web.filters.currency')}
        <select
          name="currency"
          value={query.get('currency') ?? ''}
          // The chosen limits are amounts of money: converted, not read again in the new currency.
          onChange={(e) => {
            const to = e.currentTarget.value || null;
            const from = displayCurrency(query.get('currency'));
            setQuery(
              { currency: to, ...convertLimits(fxRatesOf(), limits, from, displayCurrency(to)) },
              { replace: true },
            );
          }}
        >
          <option value="">{t('web.filters.any')}</option>
          {currencies.map((c) => (
            <option key={c.code} value={c.code}>
              {c.code} · {c.name}
            </option>
          ))}
        </select>
      </label>
      <div class={`row${datesWrong || datesRefused ? ' invalid' : ''}`}>
        <label class="field">
          {t('web.filters.date_from')}
          <input
            type="date"
            name="date_from"
            value={dateFrom}
            aria-invalid={datesWrong || 'date_from' in invalid}
            aria-describedby={datesWrong || datesRefused ? 'dates-error' : undefined}
            onChange={(e) => set('date_from', e.currentTarget.value || null)}
          />
        </label>
        <label class="field">
          {t('web.filters.date_to')}
          <input
            type="date"
            name="date_to"
            value={dateTo}
            min={dateFrom || undefined}
            aria-invalid={datesWrong || 'date_to' in invalid}
            aria-describedby={datesWrong || datesRefused ? 'dates-error' : undefined}
            onChange={(e) => set('date_to', e.currentTarget.value || null)}
          />
        </label>
      </div>
      {(datesWrong || datesRefused) && (
        <p id="dates-error" class="field-error" role="alert">
          {t(datesWrong ? 'web.filters.dates_order' : 'errors.validation_error')}
        </p>
      )}
      {num('guests', 'search.filters.guests', 1)}
      {select(
        'sort',
        'search.sort.title',
        coded(
          'search.sort',
          SORTS.filter((s) => s !== 'relevance'),
        ),
        t('search.sort.relevance'),
      )}
      {flag('instant_book', 'web.filters.instant_book')}
      {select(
        'rating_min',
        'web.filters.rating_min',
        ['3', '4', '4.5'].map((r) => ({ code: r, label: `★ ${r}+` })),
      )}

      {kind === 'stay' && (
        <>
          {choices('property_type', 'search.filters.property_type', offered('property_type', 'listing.property_type'))}
          {select('room_type', 'search.filters.room_type', offered('room_type', 'listing.room_type'))}
          <div class="row">
            {num('bedrooms_min', 'search.filters.bedrooms')}
            {num('beds_min', 'search.filters.beds')}
            {num('bathrooms_min', 'search.filters.bathrooms')}
          </div>
          {num('beach_distance_max', 'web.filters.beach_distance_max')}
          {flag('pets_allowed', 'search.filters.pets_allowed')}
          {flag('children_allowed', 'search.filters.children_allowed')}
          {flag('smoking_allowed', 'search.filters.smoking_allowed')}
          {flag('parties_allowed', 'search.filters.parties_allowed')}
          {flag('long_stay', 'search.filters.long_stay')}
        </>
      )}
      {categories.length > 0 &&
        choices(
          'category_id',
          'web.filters.category',
          categories.map((c) => ({ code: String(c.id), label: c.name })),
        )}
      {applies('duration_max', kind) && kind !== 'all' && num('duration_max', 'web.filters.duration_max', 1)}
      {applies('group_size_max', kind) && kind !== 'all' && num('group_size_max', 'web.filters.group_size_max', 1)}
      {applies('same_day', kind) && kind !== 'all' && flag('same_day', 'web.filters.same_day')}
      {applies('languages', kind) &&
        kind !== 'all' &&
        choices(
          'languages',
          'web.filters.languages',
          ['en', 'ru', 'th', 'zh-Hans'].map((code) => ({
            code,
            label: t(`listing.language.${code.replace('-', '_').toLowerCase()}`),
          })),
        )}
      {kind === 'transport' && (
        <>
          {choices('vehicle_kind', 'search.filters.vehicle_kind', offered('vehicle_kind', 'listing.vehicle'))}
          {select('transmission', 'search.filters.transmission', offered('transmission', 'listing.transmission'))}
          {num('seats_min', 'web.filters.seats_min', 1)}
        </>
      )}
      {kind === 'food' && (
        <>
          {select('food_format', 'web.filters.food_format', offered('food_format', 'listing.food_format'))}
          {choices('diets', 'search.filters.diets', offered('diets', 'listing.diet'))}
          {flag('alcohol', 'web.filters.alcohol')}
        </>
      )}
      {amenities.length > 0 &&
        choices(
          'amenities',
          'search.filters.amenities',
          amenities.flatMap((g) => g.items.map((a) => ({ code: a.code, label: a.name }))),
        )}
      <div class="filters-actions">
        <button
          type="button"
          onClick={() =>
            setQuery(
              Object.fromEntries(
                Object.keys(FILTERS)
                  .filter((k) => !['kind', 'q', 'currency'].includes(k))
                  .map((k) => [k, null]),
              ),
              { replace: true },
            )
          }
        >
          {t('web.filters.reset')}
        </button>
        <button type="button" class="primary show-results" onClick={onClose}>
          {t('search.show_results', { count })}
        </button>
      </div>
    </aside>
  );
}

/**
 * A number the URL gets when it is committed (Enter or leaving the field). What is typed before
 * that is the field's own: the panel re-renders whenever an answer arrives (filter values,
 * amenities, the count), and a field controlled by the URL alone would put the URL's value back
 * and lose the digits being typed.
 */
function NumberField({
  name,
  min,
  value,
  invalid,
  onCommit,
}: {
  name: string;
  min: number;
  value: string;
  invalid: boolean;
  onCommit(text: string): void;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  return (
    <input
      type="number"
      name={name}
      min={min}
      aria-invalid={invalid}
      inputMode="numeric"
      value={draft ?? value}
      onInput={(e) => setDraft(e.currentTarget.value)}
      onChange={(e) => {
        onCommit(e.currentTarget.value);
        setDraft(null);
      }}
    />
  );
}
