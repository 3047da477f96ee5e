import { useEffect, useState } from 'preact/hooks';
import { api, errorCode } from '../api.ts';
import { appConfig } from '../config.ts';
import { LANGUAGES, useT } from '../i18n.ts';
import type { RouteProps } from '../router.ts';
import { ErrorNote, Loading } from '../ui/notice.tsx';
import { AvatarEditor } from './avatar.tsx';
import { Done, Field, fieldErrors, type FieldErrors } from './forms.tsx';
import { useMe, type Profile } from './use-me.ts';

const TEXT_FIELDS = [
  'first_name',
  'last_name',
  'birth_date',
  'gender',
  'phone',
  'citizenship',
  'residence_country',
  'billing_address',
  'emergency_contact',
  'language',
  'currency',
] as const;
type TextField = (typeof TEXT_FIELDS)[number];
type Draft = Record<TextField, string>;

const draftOf = (me: Profile): Draft =>
  Object.fromEntries(TEXT_FIELDS.map((f) => [f, (me[f] as string | null) ?? ''])) as Draft;

/**
 * Profile edit (`PATCH /v1/me`): only the fields the guest changed are sent (an emptied field as
 * null, which clears it); the API's field errors (400 rules, 422 schema) stand beside their fields.
 */
export function ProfileScreen(_: RouteProps) {
  const t = useT();
  const { me, setMe, error } = useMe();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [fields, setFields] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (me && !draft) setDraft(draftOf(me));
  }, [me]);

  if (error) return <ErrorNote code={error} />;
  if (!me || !draft) return <Loading />;

  async function submit(e: Event) {
    e.preventDefault();
    if (!me || !draft) return;
    const before = draftOf(me);
    const body: Record<string, string | null> = {};
    for (const f of TEXT_FIELDS)
      if (draft[f].trim() !== before[f]) body[f] = draft[f].trim() === '' ? null : draft[f].trim();
    setBusy(true);
    setSaved(false);
    setFields({});
    setFailure(null);
    const { data, error: failed } = await api.PATCH('/v1/me', { body });
    setBusy(false);
    if (data) {
      setMe(data);
      setDraft(draftOf(data));
      setSaved(true);
      return;
    }
    const byField = fieldErrors(failed);
    if (Object.keys(byField).length) {
      setFields(byField);
      document.getElementById(`profile-${Object.keys(byField)[0]}`)?.focus();
    } else setFailure(errorCode(failed));
  }

  const set = (f: TextField, v: string) => {
    setDraft({ ...draft, [f]: v });
    setSaved(false);
  };
  const input = (
    f: TextField,
    label: string,
    type: 'text' | 'date' | 'tel' = 'text',
    extra: Record<string, string> = {},
  ) => (
    <Field id={`profile-${f}`} label={label} error={fields[f]}>
      {(aria) => (
        <input
          {...aria}
          {...extra}
          type={type as 'text'}
          name={f}
          value={draft[f]}
          onInput={(e) => set(f, e.currentTarget.value)}
        />
      )}
    </Field>
  );
  const select = (f: TextField, label: string, options: Array<[string, string]>) => (
    <Field id={`profile-${f}`} label={label} error={fields[f]}>
      {(aria) => (
        <select {...aria} name={f} value={draft[f]} onChange={(e) => set(f, e.currentTarget.value)}>
          <option value="">{t('account.profile.not_set')}</option>
          {options.map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      )}
    </Field>
  );

  return (
    <section class="panel account">
      <h1>{t('account.profile.title')}</h1>
      <AvatarEditor me={me} onChange={setMe} />
      <form onSubmit={(e) => void submit(e)} noValidate>
        <fieldset>
          <legend>{t('profile.personal_info')}</legend>
          {input('first_name', t('profile.first_name'), 'text', { autoComplete: 'given-name' })}
          {input('last_name', t('profile.last_name'), 'text', { autoComplete: 'family-name' })}
          {input('birth_date', t('profile.birth_date'), 'date', { autoComplete: 'bday' })}
          {select('gender', t('account.profile.gender'), [
            ['female', t('account.gender.female')],
            ['male', t('account.gender.male')],
            ['other', t('account.gender.other')],
          ])}
          {input('phone', t('profile.phone'), 'tel', { autoComplete: 'tel', placeholder: '+66812345678' })}
          {input('citizenship', t('account.profile.citizenship'), 'text', { maxLength: '2', placeholder: 'TH' })}
          {input('residence_country', t('account.profile.residence_country'), 'text', {
            maxLength: '2',
            placeholder: 'TH',
          })}
          {input('billing_address', t('account.profile.billing_address'), 'text', { autoComplete: 'street-address' })}
          {input('emergency_contact', t('account.profile.emergency_contact'))}
          {select(
            'language',
            t('profile.language'),
            LANGUAGES.map((l) => [l, t(`web.content_language.${l.replace('-', '_').toLowerCase()}`)]),
          )}
          {select(
            'currency',
            t('profile.currency'),
            (appConfig?.currencies ?? []).map((c) => [c, c]),
          )}
        </fieldset>
        <ErrorNote code={failure} />
        <Done text={saved ? t('profile.saved') : null} />
        <button type="submit" class="primary" disabled={busy}>
          {t('profile.save')}
        </button>
      </form>
    </section>
  );
}
