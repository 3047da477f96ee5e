import { z } from 'zod';

/** Shapes of `/v1/currencies` (spec 4.5). */

export const CurrencyResponse = z
  .object({
    code: z.string().meta({ description: 'ISO 4217 code, e.g. `THB`.' }),
    name: z.string().meta({ description: 'In the request language, else English.' }),
    symbol: z.string().nullable().meta({ description: 'e.g. `฿`; null when the catalog has none.' }),
    minor_units: z
      .number()
      .int()
      .meta({ description: 'Digits after the decimal point: `price_minor` / 10^minor_units is the amount.' }),
  })
  .meta({ id: 'CurrencyResponse' });
