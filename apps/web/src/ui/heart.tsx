import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { useT } from '../i18n.ts';
import { hrefTo, location, navigate } from '../router.ts';
import { useSession } from '../session.ts';

/**
 * The favorite heart of a listing: shows `is_favorite` of the card and toggles it through the
 * favorites API, then tells `onChange` the new state. Signed out, it leads to sign-in and back.
 */
export function Heart({
  listingId,
  initial,
  onChange,
}: {
  listingId: number;
  initial: boolean;
  onChange?: (on: boolean) => void;
}) {
  const t = useT();
  const signedIn = useSession() !== null;
  const [on, setOn] = useState(initial);
  const [busy, setBusy] = useState(false);
  useEffect(() => setOn(initial), [initial]);

  async function toggle() {
    if (!signedIn) {
      navigate(hrefTo('/sign-in', { next: location.get().href }));
      return;
    }
    setBusy(true);
    const params = { params: { path: { listing_id: listingId } } };
    const res = on
      ? await api.DELETE('/v1/me/favorites/{listing_id}', params)
      : await api.PUT('/v1/me/favorites/{listing_id}', params);
    setBusy(false);
    if (!res.response.ok) return;
    setOn(!on);
    onChange?.(!on);
  }

  return (
    <button
      type="button"
      class={`heart${on && signedIn ? ' on' : ''}`}
      aria-pressed={on && signedIn}
      aria-label={on && signedIn ? t('web.favorite.remove') : t('web.favorite.add')}
      disabled={busy}
      onClick={() => void toggle()}
    >
      {on && signedIn ? '♥' : '♡'}
    </button>
  );
}
