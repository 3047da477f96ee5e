import { z } from 'zod';

/** Shapes of `/v1/fx/rates` (spec 4.5). */

export const FxRatesResponse = z
  .object({
    base: z.string().meta({ description: 'The currency the rates are quoted against (the catalog base currency).' }),
    date: z.iso.date().nullable().meta({ description: 'Day the rates are for; null when there are none yet.' }),
    fetched_at: z.iso.datetime().nullable().meta({ description: 'When the rates were fetched from the source (UTC).' }),
    source: z.string().nullable().meta({ description: 'Where the rates come from, e.g. a central bank.' }),
    rates: z
      .record(z.string(), z.number())
      .default({})
      .meta({ description: '`rates[X]`: units of currency X for one unit of `base`. Empty when there are none yet.' }),
  })
  .meta({
    id: 'FxRatesResponse',
    description:
      'Exchange rates from a central bank, a hint only: payment is always in the listing’s own currency and the ' +
      'bank converts at its own rate. Clients must mark every converted amount as approximate.',
  });
