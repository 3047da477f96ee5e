/**
 * The event cards the OpenAPI examples of the events routes show (feed, upcoming, event page),
 * written once: the examples test checks each route's live answer against its example.
 */
const SUNRISE_YOGA = {
  id: 1,
  slug: 'sunrise-yoga',
  title: 'Sunrise yoga on the beach',
  category: { code: 'yoga', name: 'Yoga' },
  day: '2026-11-25',
  start_time: '06:30',
  end_time: '07:30',
  ends_next_day: false,
  start_at: '2026-11-24T23:30:00Z',
  end_at: '2026-11-25T00:30:00Z',
  timezone: 'Asia/Bangkok',
  entry: 'free',
  price_minor: 0,
  currency: 'THB',
  audience: 'family',
  crowd: 'small',
  event_lang: 'multi',
  venue: { name: 'Kata beach', place_name: 'Kata' },
  place: { id: 4, slug: 'kata', name: 'Kata' },
  point: { lat: 7.8183, lon: 98.2961 },
  lang: 'en',
  translated: false,
};

/** The weekly yoga's next occurrence, two days later. */
const SUNRISE_YOGA_NEXT = {
  ...SUNRISE_YOGA,
  day: '2026-11-27',
  start_at: '2026-11-26T23:30:00Z',
  end_at: '2026-11-27T00:30:00Z',
};

const MORNING_MARKET = {
  ...SUNRISE_YOGA,
  id: 3,
  slug: 'morning-market',
  title: 'Morning market',
  category: { code: 'market', name: 'Market' },
  day: '2026-12-01',
  start_time: '08:00',
  end_time: '11:00',
  start_at: '2026-12-01T01:00:00Z',
  end_at: '2026-12-01T04:00:00Z',
  crowd: 'large',
  event_lang: 'th',
  venue: { name: 'Kata square', place_name: 'Kata' },
  point: { lat: 7.821, lon: 98.3 },
  translated: true,
};

const occurrence = (card: typeof SUNRISE_YOGA) => ({
  day: card.day,
  start_time: card.start_time,
  end_time: card.end_time,
  ends_next_day: card.ends_next_day,
  start_at: card.start_at,
  end_at: card.end_at,
});

export const EVENT_EXAMPLES = {
  sunriseYoga: SUNRISE_YOGA,
  sunriseYogaNext: SUNRISE_YOGA_NEXT,
  morningMarket: MORNING_MARKET,
  sunriseYogaPage: {
    ...SUNRISE_YOGA,
    description: 'Gentle yoga at sunrise.',
    next_occurrences: [occurrence(SUNRISE_YOGA), occurrence(SUNRISE_YOGA_NEXT)],
  },
};
