import type { ListingPageBody } from './schemas.ts';

/** The documented answer of `GET /v1/listings/3?lang=en&currency=THB` (the test catalog's Patong hostel room). */
export const LISTING_PAGE_EXAMPLE: ListingPageBody = {
  id: 3,
  kind: 'stay',
  title: 'Patong party hostel room',
  place: {
    id: 6,
    slug: 'patong',
    name: 'Patong',
  },
  point: {
    lat: 7.894,
    lon: 98.298,
  },
  price_minor: 5000,
  currency: 'USD',
  price_unit: 'night',
  rating_avg: 3.9,
  rating_count: 12,
  instant_book: true,
  photo: {
    thumb: 'https://img.example/S3/480.jpg',
    medium: 'https://img.example/S3/1600.jpg',
    large: 'https://img.example/S3/2560.jpg',
  },
  lang: 'en',
  translated: false,
  is_favorite: false,
  description: 'A private room in the loudest street of the island.',
  description_lang: 'en',
  photos: [
    {
      thumb: 'https://img.example/S3/480.jpg',
      medium: 'https://img.example/S3/1600.jpg',
      large: 'https://img.example/S3/2560.jpg',
    },
  ],
  amenities: [
    {
      code: 'wifi',
      name: 'Wi-Fi',
    },
  ],
  attributes: [
    {
      code: 'property_type',
      name: 'Property type',
      value: 'hostel',
      value_name: 'Hostel',
    },
    {
      code: 'room_type',
      name: 'Room type',
      value: 'private_room',
      value_name: 'Private room',
    },
    {
      code: 'bedrooms',
      name: 'Bedrooms',
      value: 1,
      value_name: null,
    },
    {
      code: 'beds',
      name: 'Beds',
      value: 1,
      value_name: null,
    },
    {
      code: 'bathrooms',
      name: 'Bathrooms',
      value: 1,
      value_name: null,
    },
    {
      code: 'max_guests',
      name: 'Guests at most',
      value: 2,
      value_name: null,
    },
    {
      code: 'beach_distance_m',
      name: 'Distance to the beach, m',
      value: 150,
      value_name: null,
    },
    {
      code: 'pets_allowed',
      name: 'Pets allowed',
      value: false,
      value_name: null,
    },
    {
      code: 'smoking_allowed',
      name: 'Smoking allowed',
      value: true,
      value_name: null,
    },
    {
      code: 'children_allowed',
      name: 'Suitable for children',
      value: false,
      value_name: null,
    },
    {
      code: 'parties_allowed',
      name: 'Parties allowed',
      value: true,
      value_name: null,
    },
    {
      code: 'long_stay',
      name: 'Long-term stay',
      value: false,
      value_name: null,
    },
  ],
  languages: ['en'],
  place_path: [
    {
      id: 1,
      slug: 'thailand',
      name: 'Thailand',
      level: 'country',
    },
    {
      id: 2,
      slug: 'phuket',
      name: 'Phuket',
      level: 'region',
    },
    {
      id: 6,
      slug: 'patong',
      name: 'Patong',
      level: 'district',
    },
  ],
  location: {
    mode: 'exact',
    point: {
      lat: 7.894,
      lon: 98.298,
    },
    area: null,
  },
  price: {
    amount_minor: 5000,
    currency: 'USD',
    unit: 'night',
  },
  converted: {
    amount_minor: 177936,
    currency: 'THB',
    approximate: true,
  },
  blocked: [],
  calendar: {
    from: '2026-11-27',
    to: '2027-11-27',
    timezone: 'Asia/Bangkok',
  },
  availability: null,
};
