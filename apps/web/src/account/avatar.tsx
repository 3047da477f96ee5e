import { useEffect, useState } from 'preact/hooks';
import { api, errorCode } from '../api.ts';
import { appConfig } from '../config.ts';
import { useT } from '../i18n.ts';
import { ErrorNote } from '../ui/notice.tsx';
import { Done } from './forms.tsx';
import type { Profile } from './use-me.ts';

const ACCEPT = 'image/jpeg,image/png,image/webp,image/heic,image/heif,.heic,.heif';
const HEIC = /\.(heic|heif)$/i;

/**
 * Avatar upload (`PUT /v1/me/avatar`, multipart `file`): a preview of the chosen picture before
 * it is sent (HEIC, which browsers do not draw, is named instead and shown once the API has turned
 * it into JPEG), then the API's public URL; removal (`DELETE /v1/me/avatar`).
 */
export function AvatarEditor({ me, onChange }: { me: Profile; onChange: (me: Profile) => void }) {
  const t = useT();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tooBig, setTooBig] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const maxMb = appConfig?.max_upload_mb ?? 10;

  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  function choose(f: File | undefined) {
    setError(null);
    setDone(null);
    setTooBig(false);
    setFile(f ?? null);
    setPreview(f && !HEIC.test(f.name) && f.type !== 'image/heic' ? URL.createObjectURL(f) : null);
    if (f && f.size > maxMb * 1024 * 1024) setTooBig(true);
  }

  async function upload(e: Event) {
    e.preventDefault();
    if (!file || tooBig) return;
    setBusy(true);
    const { data, error: failed } = await api.PUT('/v1/me/avatar', {
      // The generated type says string (OpenAPI `format: binary`); the body is the File itself.
      body: { file: file as unknown as string },
      bodySerializer: (body) => {
        const form = new FormData();
        form.append('file', body.file as unknown as Blob, file.name);
        return form;
      },
    });
    setBusy(false);
    if (!data) {
      setError(errorCode(failed));
      return;
    }
    onChange({ ...me, avatar_url: data.avatar_url });
    setFile(null);
    setPreview(null);
    setDone(t('account.avatar.uploaded'));
  }

  async function remove() {
    setBusy(true);
    const { response, error: failed } = await api.DELETE('/v1/me/avatar');
    setBusy(false);
    if (!response.ok) {
      setError(errorCode(failed));
      return;
    }
    onChange({ ...me, avatar_url: null });
    setDone(t('account.avatar.removed'));
  }

  return (
    <form class="avatar-editor" onSubmit={(e) => void upload(e)}>
      <h2>{t('account.avatar.title')}</h2>
      <div class="avatar-row">
        {me.avatar_url ? (
          <img class="avatar" src={me.avatar_url} width={96} height={96} alt={t('account.avatar.current')} />
        ) : (
          <span class="avatar empty" aria-hidden="true">
            {me.first_name.slice(0, 1)}
          </span>
        )}
        {preview && (
          <img class="avatar preview" src={preview} width={96} height={96} alt={t('account.avatar.preview')} />
        )}
        {file && !preview && <p class="hint">{t('account.avatar.no_preview', { name: file.name })}</p>}
      </div>
      <label for="avatar-file">{t('account.avatar.choose')}</label>
      <input
        id="avatar-file"
        type="file"
        accept={ACCEPT}
        aria-describedby="avatar-hint"
        onChange={(e) => choose(e.currentTarget.files?.[0])}
      />
      <small id="avatar-hint" class="hint">
        {t('account.avatar.hint', { mb: maxMb })}
      </small>
      {tooBig && (
        <p class="field-error" role="alert">
          {t('account.avatar.too_big', { mb: maxMb })}
        </p>
      )}
      <ErrorNote code={error} />
      <Done text={done} />
      <div class="actions">
        <button type="submit" class="primary" disabled={!file || tooBig || busy}>
          {t('account.avatar.upload')}
        </button>
        {me.avatar_url && (
          <button type="button" disabled={busy} onClick={() => void remove()}>
            {t('account.avatar.remove')}
          </button>
        )}
      </div>
    </form>
  );
}
