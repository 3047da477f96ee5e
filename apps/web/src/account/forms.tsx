import type { ComponentChildren } from 'preact';
import { useT } from '../i18n.ts';

/**
 * Field errors of an API answer, by field name → reason: a 400 `validation_error` names one field
 * (`details.field`, `details.reason`) or several (`details.issues`); a 422 `schema_invalid` names
 * them in `details.fields`; a 409 `conflict` names its field (`email_taken`).
 */
export type FieldErrors = Record<string, string>;

interface Details {
  field?: unknown;
  fields?: unknown;
  reason?: unknown;
  issues?: unknown;
}

export function fieldErrors(error: unknown): FieldErrors {
  const envelope = (error as { error?: { code?: unknown; details?: Details } } | undefined)?.error;
  const details = envelope?.details ?? {};
  const out: FieldErrors = {};
  const fallback = envelope?.code === 'conflict' ? 'conflict' : 'invalid';
  if (Array.isArray(details.issues)) {
    for (const issue of details.issues as Array<{ field?: unknown; reason?: unknown }>) {
      if (typeof issue.field === 'string' && !(issue.field in out)) {
        out[issue.field] = typeof issue.reason === 'string' ? issue.reason : fallback;
      }
    }
  }
  if (typeof details.field === 'string' && !(details.field in out)) {
    out[details.field] = typeof details.reason === 'string' ? details.reason : fallback;
  }
  if (Array.isArray(details.fields)) {
    for (const f of details.fields) if (typeof f === 'string' && !(f in out)) out[f] = fallback;
  }
  return out;
}

/** A key for the `Idempotency-Key` header (`crypto.randomUUID` exists only in secure contexts). */
export function idempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The guest's words for a field error's reason; an unknown reason reads as "not valid". */
export function useReasonText(): (reason: string) => string {
  const t = useT();
  return (reason) => {
    const key = `account.reason.${reason}`;
    const text = t(key);
    return text === key ? t('account.reason.invalid') : text;
  };
}

/** A labelled control with its error beside it, tied to the control by `aria-describedby`. */
export function Field(props: {
  id: string;
  label: string;
  error?: string | undefined;
  /** Words for the error other than its reason's (a reason with a number in it). */
  errorText?: string | undefined;
  hint?: string;
  /** A checkbox or radio: the control before its label, on one line. */
  inline?: boolean;
  children: (aria: { id: string; 'aria-invalid': boolean; 'aria-describedby'?: string }) => ComponentChildren;
}) {
  const reason = useReasonText();
  const described = [props.hint ? `${props.id}-hint` : '', props.error ? `${props.id}-error` : '']
    .filter(Boolean)
    .join(' ');
  const control = props.children({
    id: props.id,
    'aria-invalid': Boolean(props.error),
    ...(described ? { 'aria-describedby': described } : {}),
  });
  const label = <label for={props.id}>{props.label}</label>;
  return (
    <div class={`field${props.error ? ' invalid' : ''}`}>
      {props.inline ? (
        // A checkbox: the box first, its words beside it.
        <div class="acct-check">
          {control}
          {label}
        </div>
      ) : (
        <>
          {label}
          {control}
        </>
      )}
      {props.hint && (
        <small id={`${props.id}-hint`} class="hint">
          {props.hint}
        </small>
      )}
      {props.error && (
        <p id={`${props.id}-error`} class="field-error">
          {props.errorText ?? reason(props.error)}
        </p>
      )}
    </div>
  );
}

/** A short confirmation after a successful action, read out by screen readers. */
export function Done({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <p class="done" role="status">
      {text}
    </p>
  );
}
