import { useEffect, useState } from 'preact/hooks';
import { api, errorCode } from '../api.ts';
import { appConfig } from '../config.ts';
import { useT } from '../i18n.ts';
import { ErrorNote } from '../ui/notice.tsx';
import { Done, Field, fieldErrors } from './forms.tsx';
import type { Profile } from './use-me.ts';

const ACCEPT = 'image/jpeg,image/png,image/webp,image/heic,image/heif,.heic,.heif';
const HEIC = /\.(heic|heif)$/i;
const IMAGE_TYPES = /^image\/(jpeg|png|webp|heic|heif)$/;

/** HEIC by its name or type: browsers do not draw it, so it gets no preview. */
const isHeic = (f: File) => HEIC.test(f.name) || /^image\/hei[cf]$/.test(f.type);
/** A file the page can tell is not one of the accepted images (by its type, else its name). */
const notAnImage = (f: File) => !isHeic(f) && !IMAGE_TYPES.test(f.type);

/**
 * Avatar upload (`PUT /v1/me/avatar`, multipart `file`): a preview of the chosen picture before
 * it is sent (HEIC, which browsers do not draw, is named instead and shown once the API has turned
 * it into JPEG), then the API's public URL; removal (`DELETE /v1/me/avatar`). A file that is not
 * an image, or one the browser cannot draw, is refused on the field at once (no broken preview);
 * the API's refusals (400 on `file` with its `reason`: `unsupported_type`, `corrupt`, …) are
 * shown there too.
 */
export function AvatarEditor({ me, onChange }: { me: Profile; onChange: (me: Profile) => void }) {
  const t = useT();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** The reason the chosen file is refused (by the page, or the API's `details.reason`). */
  const [refused, setRefused] = useState<string | null>(null);
  const [tooBig, setTooBig] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const maxMb = appConfig?.max_upload_mb ?? 10;

  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  function choose(f: File | undefined) {
    setError(null);
    setDone(null);
    setTooBig(false);
    setRefused(f && notAnImage(f) ? 'unsupported_type' : null);
    setFile(f ?? null);
    setPreview(f && !isHeic(f) && !notAnImage(f) ? URL.createObjectURL(f) : null);
    if (f && f.size > maxMb * 1024 * 1024) setTooBig(true);
  }

  async function upload(e: Event) {
    e.preventDefault();
    if (!file || tooBig || refused) return;
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
      const onFile = fieldErrors(failed).file;
      if (onFile) {
        setRefused(onFile);
        setPreview(null);
      } else setError(errorCode(failed));
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
        {preview && !refused && (
          <img
            class="avatar preview"
            src={preview}
            width={96}
            height={96}
            alt={t('account.avatar.preview')}
            // Named an image, but the browser cannot draw it: not an image the API takes either.
            onError={() => {
              setPreview(null);
              setRefused('unsupported_type');
            }}
          />
        )}
        {file && !preview && !refused && <p class="hint">{t('account.avatar.no_preview', { name: file.name })}</p>}
      </div>
      <Field
        id="avatar-file"
        label={t('account.avatar.choose')}
        hint={t('account.avatar.hint', { mb: maxMb })}
        error={tooBig ? 'too_large' : (refused ?? undefined)}
        errorText={tooBig ? t('account.avatar.too_big', { mb: maxMb }) : undefined}
      >
        {(aria) => <input {...aria} type="file" accept={ACCEPT} onChange={(e) => choose(e.currentTarget.files?.[0])} />}
      </Field>
      <ErrorNote code={error} />
      <Done text={done} />
      <div class="actions">
        <button type="submit" class="primary" disabled={!file || tooBig || Boolean(refused) || busy}>
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
