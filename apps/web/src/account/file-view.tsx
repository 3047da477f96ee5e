import { useEffect, useState } from 'preact/hooks';
import { api, errorCode, type Schemas } from '../api.ts';
import { useT } from '../i18n.ts';
import type { RouteProps } from '../router.ts';
import { ErrorNote, Loading } from '../ui/notice.tsx';

/**
 * A private file (`/account/files/:media_id`), shown through a one-time ticket
 * (`POST /v1/media/{media_id}/ticket`): an image element cannot send the token, so it loads the
 * ticket's URL, which works once within 60 seconds. Another look asks for another ticket.
 */
export function FileView({ params }: RouteProps) {
  const t = useT();
  const mediaId = params.media_id ?? '';
  const [ticket, setTicket] = useState<Schemas['MediaTicketResponse'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [broken, setBroken] = useState(false);

  async function issue() {
    setBroken(false);
    setTicket(null);
    const { data, error: failed } = await api.POST('/v1/media/{media_id}/ticket', {
      params: { path: { media_id: mediaId } },
    });
    setTicket(data ?? null);
    setError(data ? null : errorCode(failed));
  }
  useEffect(() => {
    void issue();
  }, [mediaId]);

  return (
    <section class="panel account">
      <h1>{t('account.file.title')}</h1>
      <ErrorNote code={error} />
      {!ticket && !error && <Loading />}
      {ticket && !broken && (
        <img class="private-file" src={ticket.url} alt={t('account.file.alt')} onError={() => setBroken(true)} />
      )}
      {broken && <p class="hint">{t('account.file.not_image')}</p>}
      <button type="button" onClick={() => void issue()}>
        {t('account.file.again')}
      </button>
    </section>
  );
}
