import { AppError, errors } from '@guest/http-kit';
import { LANGUAGES } from '@guest/http-kit';
import { ISO_COUNTRY_CODES } from './countries.ts';

export const GENDERS = ['female', 'male', 'other'] as const;

const E164 = /^\+[1-9]\d{7,14}$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The text fields of ProfileUpdateRequest, as the profile row stores them. */
export interface ProfileTextChanges {
  birthDate?: string | null;
  gender?: string | null;
  phone?: string | null;
  citizenship?: string | null;
  residenceCountry?: string | null;
  billingAddress?: string | null;
  emergencyContact?: string | null;
  language?: string | null;
  currency?: string | null;
}

export interface RuleContext {
  /** Today as `YYYY-MM-DD` (birth dates may not be later). */
  today: string;
  knownCurrencies: ReadonlySet<string>;
}

/** `null`, `""` and blanks all clear a field; `undefined` means "not sent". */
function cleared(v: string | null | undefined): v is null | '' {
  return v === null || (typeof v === 'string' && v.trim() === '');
}

export function normalizeBirthDate(v: string, today: string): string {
  const m = ISO_DATE.exec(v.trim());
  if (!m)
    throw errors.validation('birth_date', 'Birth date must be a date in the form YYYY-MM-DD.', { reason: 'format' });
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const dt = new Date(Date.UTC(y, mo - 1, d));
  if (dt.getUTCFullYear() !== y || dt.getUTCMonth() !== mo - 1 || dt.getUTCDate() !== d) {
    throw errors.validation('birth_date', 'Birth date is not a real calendar day.', { reason: 'not_a_day' });
  }
  const iso = m[0];
  if (iso < '1900-01-01') throw errors.validation('birth_date', 'Birth date is before 1900.', { reason: 'too_early' });
  if (iso > today) throw errors.validation('birth_date', 'Birth date is in the future.', { reason: 'in_future' });
  return iso;
}

export function normalizePhone(v: string): string {
  const compact = v.replace(/[\s\-().]/g, '');
  if (!E164.test(compact)) {
    throw errors.validation('phone', 'Phone must be in E.164 form: + and the country code, 8 to 15 digits.', {
      reason: 'not_e164',
    });
  }
  return compact;
}

export function normalizeCountry(field: string, v: string): string {
  const code = v.trim().toUpperCase();
  if (!ISO_COUNTRY_CODES.has(code)) {
    throw errors.validation(field, `${field} must be an ISO 3166-1 alpha-2 country code.`, {
      reason: 'unknown_country',
    });
  }
  return code;
}

export function normalizeLanguage(v: string): string {
  const found = LANGUAGES.find((l) => l.toLowerCase() === v.trim().toLowerCase());
  if (!found) {
    throw errors.validation('language', `Language must be one of ${LANGUAGES.join(', ')}.`, {
      reason: 'unsupported',
      allowed: [...LANGUAGES],
    });
  }
  return found;
}

export function normalizeCurrency(v: string, known: ReadonlySet<string>): string {
  const code = v.trim().toUpperCase();
  if (!known.has(code)) {
    throw errors.validation('currency', 'Currency must be one of the known currency codes.', {
      reason: 'unknown_currency',
      allowed: [...known].sort(),
    });
  }
  return code;
}

export function normalizeGender(v: string): string {
  const g = v.trim().toLowerCase();
  if (!(GENDERS as readonly string[]).includes(g)) {
    throw errors.validation('gender', `Gender must be one of ${GENDERS.join(', ')}.`, {
      reason: 'unsupported',
      allowed: [...GENDERS],
    });
  }
  return g;
}

export function normalizeName(field: 'first_name' | 'last_name', v: string | null): string {
  if (cleared(v)) throw errors.validation(field, `${field} cannot be empty.`, { reason: 'required' });
  return v.trim();
}

type TextInput = {
  birth_date?: string | null;
  gender?: string | null;
  phone?: string | null;
  citizenship?: string | null;
  residence_country?: string | null;
  billing_address?: string | null;
  emergency_contact?: string | null;
  language?: string | null;
  currency?: string | null;
};

/**
 * Runs checks that each throw a 400 `validation_error` for one field, and reports every broken
 * rule at once: one 400 whose `details.fields` names them all (`details.field` the first, as
 * before) and `details.issues` gives each its `field`, `reason` and `message`.
 */
export class RuleProblems {
  private readonly problems: AppError[] = [];

  check(run: () => void): void {
    try {
      run();
    } catch (err) {
      if (err instanceof AppError && err.code === 'validation_error') this.problems.push(err);
      else throw err;
    }
  }

  throwIfAny(): void {
    if (!this.problems.length) return;
    if (this.problems.length === 1) throw this.problems[0]!;
    const issues = this.problems.map((p) => ({ ...p.details, field: String(p.details.field), message: p.message }));
    const fields = issues.map((i) => String(i.field));
    throw new AppError('validation_error', this.problems.map((p) => p.message).join(' '), {
      field: fields[0],
      fields,
      issues,
    });
  }
}

/**
 * Checks each text field that was sent and turns it into what the row stores. A field not sent
 * stays absent from the result (unchanged); one sent as null or empty becomes null (cleared).
 * Broken rules are collected in `problems` (every field at once); without it the first is thrown
 * as 400 `validation_error` naming the field.
 */
export function normalizeProfileText(input: TextInput, ctx: RuleContext, collector?: RuleProblems): ProfileTextChanges {
  const problems = collector ?? new RuleProblems();
  const out: ProfileTextChanges = {};
  const each = <K extends keyof TextInput>(key: K, apply: (v: string) => string, set: (v: string | null) => void) => {
    const v = input[key];
    if (v === undefined) return;
    problems.check(() => set(cleared(v) ? null : apply(v)));
  };
  each(
    'birth_date',
    (v) => normalizeBirthDate(v, ctx.today),
    (v) => (out.birthDate = v),
  );
  each('gender', normalizeGender, (v) => (out.gender = v));
  each('phone', normalizePhone, (v) => (out.phone = v));
  each(
    'citizenship',
    (v) => normalizeCountry('citizenship', v),
    (v) => (out.citizenship = v),
  );
  each(
    'residence_country',
    (v) => normalizeCountry('residence_country', v),
    (v) => (out.residenceCountry = v),
  );
  each(
    'billing_address',
    (v) => v.trim(),
    (v) => (out.billingAddress = v),
  );
  each(
    'emergency_contact',
    (v) => v.trim(),
    (v) => (out.emergencyContact = v),
  );
  each('language', normalizeLanguage, (v) => (out.language = v));
  each(
    'currency',
    (v) => normalizeCurrency(v, ctx.knownCurrencies),
    (v) => (out.currency = v),
  );
  if (!collector) problems.throwIfAny();
  return out;
}
