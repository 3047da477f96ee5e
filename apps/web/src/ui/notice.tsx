import { useT } from '../i18n.ts';

/** A failed request as the guest sees it: the dictionary's message for the error code. */
export function ErrorNote({ code }: { code: string | null }) {
  const t = useT();
  if (!code) return null;
  const key = `errors.${code}`;
  const text = t(key);
  return (
    <p class="error" role="alert">
      {text === key ? t('errors.internal_error') : text}
    </p>
  );
}

export function Loading() {
  const t = useT();
  return (
    <p class="loading" role="status">
      {t('common.loading')}
    </p>
  );
}
