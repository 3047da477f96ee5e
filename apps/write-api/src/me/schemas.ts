import { z } from 'zod';
import { ACCOUNT_STATUSES, RESTRICTION_KINDS, SEARCH_FILTER_SECTIONS, VERIFICATION_STATUSES } from '@guest/db/schema';
import { GENDERS } from './rules.ts';

/** DESIGN "OwnRestriction": an active restriction of the caller's own account. */
export const OwnRestriction = z
  .object({
    kind: z.enum(RESTRICTION_KINDS),
    reason: z.string().nullable(),
    until: z.iso.datetime().nullable().meta({ description: 'End of the restriction; null while indefinite.' }),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'OwnRestriction' });

export const ProfileResponse = z
  .object({
    id: z.uuid(),
    email: z.string().nullable(),
    email_confirmed: z.boolean(),
    status: z.enum(ACCOUNT_STATUSES),
    first_name: z.string(),
    last_name: z.string(),
    avatar_url: z
      .string()
      .nullable()
      .meta({
        description:
          'Absolute URL of the avatar (`…/v1/media/avatars/{file}`, on `PUBLIC_BASE_URL`): public and unguessable, so it ' +
          'works in an image element without a token; immutable (`Cache-Control: public, max-age=31536000, immutable`). ' +
          'A new upload gets a new URL; a replaced or removed avatar answers 404.',
      }),
    birth_date: z.iso.date().nullable(),
    gender: z.enum(GENDERS).nullable(),
    phone: z.string().nullable().meta({ description: 'E.164, e.g. `+66812345678`.' }),
    phone_confirmed: z.boolean(),
    citizenship: z.string().nullable().meta({ description: 'ISO 3166-1 alpha-2.' }),
    residence_country: z.string().nullable().meta({ description: 'ISO 3166-1 alpha-2.' }),
    billing_address: z.string().nullable(),
    emergency_contact: z.string().nullable(),
    language: z.string().nullable(),
    currency: z.string().nullable(),
    verification_status: z.enum(VERIFICATION_STATUSES),
    verified_at: z.iso.datetime().nullable(),
    notify_push: z
      .boolean()
      .meta({ description: 'Push master switch; the same value as `enabled` of the push preferences.' }),
    notify_email: z.boolean().meta({
      description:
        'Master switch of optional emails (those in the email preferences); own-action emails are always sent.',
    }),
    notify_marketing: z.boolean().meta({
      description: 'Consent to marketing (given at registration); marketing preference codes default to it.',
    }),
    bookings_count: z.number().int(),
    rating_avg: z.number().nullable(),
    rating_count: z.number().int(),
    created_at: z.iso.datetime(),
    restrictions: z.array(OwnRestriction),
  })
  .meta({ id: 'ProfileResponse' });

const optText = (max: number, description: string) => z.string().max(max).nullable().optional().meta({ description });

export const ProfileUpdateRequest = z
  .strictObject({
    first_name: z.string().max(100).nullable().optional().meta({ description: 'Cannot be cleared.' }),
    last_name: z.string().max(100).nullable().optional().meta({ description: 'Cannot be cleared.' }),
    birth_date: optText(64, '`YYYY-MM-DD`, a real day between 1900-01-01 and today.'),
    gender: optText(64, `One of ${GENDERS.map((g) => `\`${g}\``).join(', ')}.`),
    phone: optText(
      64,
      'E.164 (`+` and 8 to 15 digits); spaces, dashes, dots and brackets are dropped. A new number is unconfirmed.',
    ),
    citizenship: optText(64, 'ISO 3166-1 alpha-2 country code.'),
    residence_country: optText(64, 'ISO 3166-1 alpha-2 country code.'),
    billing_address: optText(500, 'Free text.'),
    emergency_contact: optText(500, 'Free text.'),
    language: optText(64, 'One of the supported languages: `en`, `ru`, `th`, `zh-Hans`.'),
    currency: optText(64, 'ISO 4217 code among the known currencies (`GET /v1/currencies`).'),
    notify_push: z.boolean().nullable().optional(),
    notify_email: z.boolean().nullable().optional(),
    notify_marketing: z.boolean().nullable().optional(),
  })
  .meta({
    id: 'ProfileUpdateRequest',
    description:
      'Only the fields present change. A text field sent as `null` or as an empty string is cleared; a field not sent is ' +
      'left as it is. A boolean sent as `null` is left as it is. Any other field (read-only ones such as `email` or ' +
      '`status`, or a misspelt name) is 422 `schema_invalid` naming it in `details.fields`. Values that break a rule are ' +
      '400 `validation_error`: `details.fields` names every one at once (`details.field` the first, `details.issues` ' +
      'each with its `reason`).',
  });

export type ProfileUpdate = z.infer<typeof ProfileUpdateRequest>;

export const AvatarResponse = z.object({ avatar_url: z.string() }).meta({ id: 'AvatarResponse' });

const Section = z.record(z.string(), z.unknown()).meta({
  id: 'SavedSearchSection',
  description:
    "The client's own saved filter state for one section (for search sections, typically the search parameters " +
    'such as `price_min` or `amenities`; for `map_view`, e.g. `lat`, `lon`, `zoom`). Stored and returned as sent.',
});

export const SearchFiltersResponse = z
  .object(
    Object.fromEntries(SEARCH_FILTER_SECTIONS.map((s) => [s, Section])) as Record<
      (typeof SEARCH_FILTER_SECTIONS)[number],
      typeof Section
    >,
  )
  .meta({ id: 'SearchFiltersResponse', description: 'Saved filters; a section never saved (or cleared) is `{}`.' });

export const SearchFiltersRequest = z
  .object(
    Object.fromEntries(SEARCH_FILTER_SECTIONS.map((s) => [s, Section.nullable().optional()])) as Record<
      (typeof SEARCH_FILTER_SECTIONS)[number],
      z.ZodOptional<z.ZodNullable<typeof Section>>
    >,
  )
  .meta({
    id: 'SearchFiltersRequest',
    description:
      'A section present replaces the saved one; `null` clears it; a section absent from the body is left untouched.',
  });
