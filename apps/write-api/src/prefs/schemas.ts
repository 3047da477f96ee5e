import { z } from 'zod';

const PrefItem = z
  .object({
    code: z.string().meta({ description: 'Dotted preference code, e.g. `booking.reminder`.' }),
    enabled: z.boolean(),
    default: z.boolean().meta({ description: 'The registry default (marketing codes follow `notify_marketing`).' }),
    marketing: z.boolean(),
  })
  .meta({ id: 'PrefItem' });

const prefGroup = (id: string, description: string) =>
  z
    .object({
      code: z.string().meta({ description: 'Group code, e.g. `booking`; clients label groups and items by code.' }),
      items: z.array(PrefItem),
    })
    .meta({ id, description });

export const EmailPrefGroup = prefGroup('EmailPrefGroup', 'A group of email preferences.');
export const PushPrefGroup = prefGroup('PushPrefGroup', 'A group of push preferences.');

export const EmailPrefsBody = z.object({ groups: z.array(EmailPrefGroup) }).meta({
  id: 'EmailPrefsBody',
  description:
    'Every optional email, in groups. Emails that answer the guest’s own action (email confirmation, password reset, ' +
    'account deletion) are always sent and are not listed.',
});

export const PushPrefsBody = z
  .object({
    enabled: z
      .boolean()
      .meta({ description: 'Master switch: when off, no push is sent (the same value as `notify_push`).' }),
    groups: z.array(PushPrefGroup),
  })
  .meta({ id: 'PushPrefsBody' });

const prefsMap = z.record(z.string().max(100), z.boolean()).meta({ description: 'Preference code → on/off.' });

export const EmailPrefsUpdate = z.object({ prefs: prefsMap }).meta({
  id: 'EmailPrefsUpdate',
  description: 'Codes not named keep their value. An unknown code is 400 `email_pref_unknown`.',
});

export const PushPrefsUpdate = z
  .object({
    enabled: z
      .boolean()
      .nullable()
      .optional()
      .meta({ description: 'Master switch; null or absent leaves it as it is.' }),
    prefs: prefsMap.optional(),
  })
  .meta({
    id: 'PushPrefsUpdate',
    description: 'Codes not named keep their value. An unknown code is 400 `push_pref_unknown`.',
  });
