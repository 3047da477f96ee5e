import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type Schemas } from '../../api.ts';
import { useT } from '../../i18n.ts';

type Suggestion =
  | { type: 'place'; place: Schemas['PlaceSuggestion'] }
  | { type: 'category'; category: Schemas['CategorySuggestion'] }
  | { type: 'listing'; listing: Schemas['ListingSuggestion'] };

interface Props {
  value: string;
  kind: string;
  onSearch(q: string): void;
  onPlace(place: Schemas['PlaceSuggestion']): void;
  /** A suggested listing was chosen: its page opens. */
  onListing(id: number): void;
  /** A category was chosen: its listings (of its kind) are searched. */
  onCategory(category: Schemas['CategorySuggestion']): void;
}

/**
 * The text search with suggestions while typing (`/v1/search/suggest`, places and listings, in
 * the interface language): a combobox; Enter searches the text, a chosen place also moves the map,
 * a chosen listing opens its page.
 */
export function SearchBox({ value, kind, onSearch, onPlace, onCategory, onListing }: Props) {
  const t = useT();
  const [text, setText] = useState(value);
  const [items, setItems] = useState<Suggestion[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const seq = useRef(0);
  useEffect(() => setText(value), [value]);

  useEffect(() => {
    const q = text.trim();
    const mine = ++seq.current;
    if (q.length < 2 || q === value) {
      setItems([]);
      return;
    }
    const abort = new AbortController();
    const timer = setTimeout(() => {
      void api
        .GET('/v1/search/suggest', {
          params: { query: { q, ...(kind !== 'all' ? { kind: kind as 'stay' } : {}) } },
          signal: abort.signal,
        })
        .then(({ data }) => {
          // An answer for an older text never replaces the one for the newest.
          if (!data || mine !== seq.current) return;
          setItems([
            ...data.places.map((place) => ({ type: 'place' as const, place })),
            ...data.categories.map((category) => ({ type: 'category' as const, category })),
            ...data.listings.map((listing) => ({ type: 'listing' as const, listing })),
          ]);
          setActive(-1);
          setOpen(true);
        })
        .catch(() => undefined);
    }, 150);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [text, kind]);

  function choose(s: Suggestion) {
    setOpen(false);
    if (s.type === 'place') {
      setText(s.place.name);
      onPlace(s.place);
    } else if (s.type === 'category') {
      setText('');
      onCategory(s.category);
    } else {
      setText(s.listing.title);
      onListing(s.listing.id);
    }
  }

  function onKey(e: KeyboardEvent) {
    if (e.key === 'ArrowDown' && items.length) {
      e.preventDefault();
      setOpen(true);
      setActive((a) => (a + 1) % items.length);
    } else if (e.key === 'ArrowUp' && items.length) {
      e.preventDefault();
      setActive((a) => (a <= 0 ? items.length - 1 : a - 1));
    } else if (e.key === 'Escape') setOpen(false);
    else if (e.key === 'Enter' && open && active >= 0 && items[active]) {
      e.preventDefault();
      choose(items[active]);
    }
  }

  const places = items.filter((s) => s.type === 'place');
  const categories = items.filter((s) => s.type === 'category');
  const listings = items.filter((s) => s.type === 'listing');
  const option = (s: Suggestion) => {
    const i = items.indexOf(s);
    const id = `suggest-${i}`;
    return (
      <li
        id={id}
        key={id}
        role="option"
        aria-selected={i === active}
        class={i === active ? 'active' : ''}
        onMouseDown={(e) => {
          e.preventDefault();
          choose(s);
        }}
      >
        {s.type === 'place' ? (
          <>
            <strong>{s.place.name}</strong> <small>{s.place.name_full ?? ''}</small>
          </>
        ) : s.type === 'category' ? (
          <>
            <strong>{s.category.name}</strong> <small>{t(`kind.${s.category.kind}`)}</small>
          </>
        ) : (
          <>
            <strong>{s.listing.title}</strong> <small>{s.listing.place_name}</small>
          </>
        )}
      </li>
    );
  };

  return (
    <form
      class="search-box"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        setOpen(false);
        onSearch(text.trim());
      }}
    >
      <label class="visually-hidden" for="q">
        {t('search.placeholder')}
      </label>
      <input
        id="q"
        name="q"
        type="search"
        autoComplete="off"
        placeholder={t('search.placeholder')}
        value={text}
        role="combobox"
        list={undefined}
        aria-expanded={open && items.length > 0}
        aria-controls="suggestions"
        aria-autocomplete="list"
        aria-activedescendant={active >= 0 ? `suggest-${active}` : undefined}
        onInput={(e) => setText(e.currentTarget.value)}
        onKeyDown={onKey}
        onBlur={() => setOpen(false)}
        onFocus={() => items.length && setOpen(true)}
      />
      <button type="submit">{t('search.button')}</button>
      <ul
        id="suggestions"
        role="listbox"
        class="suggestions"
        hidden={!open || items.length === 0}
        aria-label={t('web.suggestions')}
      >
        {places.length > 0 && (
          <li role="presentation" class="group">
            {t('search.suggest.places')}
          </li>
        )}
        {places.map(option)}
        {categories.length > 0 && (
          <li role="presentation" class="group">
            {t('web.suggest.categories')}
          </li>
        )}
        {categories.map(option)}
        {listings.length > 0 && (
          <li role="presentation" class="group">
            {t('search.suggest.listings')}
          </li>
        )}
        {listings.map(option)}
      </ul>
    </form>
  );
}
