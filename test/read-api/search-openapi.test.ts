import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readApi } from '@guest/read-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { http } from '../support/http.ts';

/** The zod schemas of spec 4.7 write the OpenAPI document: every route, parameter and shape. */
let t: TestApp;
let doc: any;
beforeAll(async () => {
  t = await startTestApp({ apps: [readApi] });
  doc = (await http(t.url, 'GET', '/v1/openapi.json')).body;
});
afterAll(async () => t?.close());

describe('OpenAPI of /v1/search/*', () => {
  it('lists every search route with its parameters', () => {
    const params = (path: string) => (doc.paths[path]?.get?.parameters ?? []).map((p: any) => p.name);
    const shared = [
      'kind',
      'bbox',
      'near',
      'radius_m',
      'q',
      'date_from',
      'date_to',
      'guests',
      'price_min',
      'price_max',
      'currency',
      'property_type',
      'room_type',
      'bedrooms_min',
      'beds_min',
      'bathrooms_min',
      'beach_distance_max',
      'pets_allowed',
      'smoking_allowed',
      'children_allowed',
      'parties_allowed',
      'long_stay',
      'category_id',
      'duration_max',
      'languages',
      'group_size_max',
      'same_day',
      'price_unit',
      'vehicle_kind',
      'transmission',
      'seats_min',
      'food_format',
      'diets',
      'alcohol',
      'amenities',
      'instant_book',
      'rating_min',
    ];
    expect(params('/v1/search/listings')).toEqual(expect.arrayContaining([...shared, 'sort', 'limit', 'cursor']));
    expect(params('/v1/search/count')).toEqual(expect.arrayContaining(shared));
    expect(params('/v1/search/map')).toEqual(expect.arrayContaining([...shared, 'zoom']));
    expect(params('/v1/search/price-range')).toEqual(expect.arrayContaining(['kind', 'currency']));
    expect(params('/v1/search/suggest')).toEqual(expect.arrayContaining(['q', 'kind']));
    expect(doc.paths['/v1/search/map'].get.parameters.find((p: any) => p.name === 'zoom').required).toBe(true);
  });

  it('names the response shapes once, as components', () => {
    for (const id of [
      'FeedResponse',
      'ListingCard',
      'MapResponse',
      'MapPoint',
      'MapCluster',
      'CountResponse',
      'PriceRangeResponse',
      'SuggestResponse',
      'PlaceSuggestion',
      'ListingSuggestion',
    ]) {
      expect(doc.components.schemas[id], id).toBeDefined();
    }
  });
});
