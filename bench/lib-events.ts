import { BenchError, getJson } from './lib.ts';

/**
 * The events read scenarios of spec 4.8, shared by `npm run bench:events` and `npm run
 * bench:search`: the calendar strip over 30 days and the upcoming list, against a running read
 * API at `base` whose index holds the demo catalog (`npm run demo:load -- --events 5000`). Each
 * scenario cycles through several filter shapes so that it is not one cached query.
 */
export interface EventScenario {
  name: string;
  /** Paths with their query strings, cycled through. */
  paths: string[];
}

export interface EventScenarios {
  scenarios: EventScenario[];
  /** Distinct events in the 180-day horizon, as the service counts them. */
  eventsInHorizon: number;
  categories: number;
}

/** The probe that finds the events and the second page of upcoming (its cursor). */
export const UPCOMING_PROBE = '/v1/events/upcoming?with_total=true&days=180&limit=100';

export async function eventScenarios(base: string): Promise<EventScenarios> {
  const categories = await getJson<Array<{ code: string }>>(base, '/v1/events/categories');
  const probe = await getJson<{ total: number | null; next_cursor: string | null }>(base, UPCOMING_PROBE);
  if (!probe.total) {
    throw new BenchError(
      'The events index is empty: load the demo catalog first (npm run demo:load -- --events 5000).',
    );
  }
  const page2 = probe.next_cursor ? `&cursor=${encodeURIComponent(probe.next_cursor)}` : '';
  const cat = (i: number) => categories[i % categories.length]?.code ?? 'music';

  const shapes = [
    '',
    `&category=${cat(0)}`,
    `&category=${cat(1)},${cat(2)}`,
    '&time=evening',
    '&entry=free&audience=family',
    '&crowd=small,medium',
    '&q=beach',
    '&near=7.8804,98.3923&radius_m=15000',
  ];

  return {
    eventsInHorizon: probe.total,
    categories: categories.length,
    scenarios: [
      { name: 'calendar days=30', paths: shapes.map((s) => `/v1/events/calendar?days=30${s}`) },
      { name: 'upcoming (30 days)', paths: shapes.map((s) => `/v1/events/upcoming?limit=20${s}`) },
      {
        name: 'upcoming with_total, page 2',
        paths: [`${UPCOMING_PROBE}${page2}`, '/v1/events/upcoming?with_total=true'],
      },
    ],
  };
}
