import { describe, expect, it } from 'vitest';
import {
  buildListingSuggestRequest,
  buildPlaceSuggestRequest,
  buildPlacesWithKindRequest,
  categoryCodesOf,
  foldSame,
  orderSuggestedPlaces,
  suggestQuery,
} from './suggest.ts';

describe('suggestQuery: the last word a prefix, a whole word forgiven a small typo', () => {
  it('asks for every word (bool_prefix over the shingles), or for the words with a typo at half weight', () => {
    expect(suggestQuery('kata be')).toEqual({
      bool: {
        should: [
          {
            multi_match: {
              query: 'kata be',
              type: 'bool_prefix',
              fields: ['suggest', 'suggest._2gram', 'suggest._3gram'],
              operator: 'and',
            },
          },
          {
            match: {
              suggest: { query: 'kata be', operator: 'and', fuzziness: 'AUTO:3,6', prefix_length: 1, boost: 0.5 },
            },
          },
        ],
        minimum_should_match: 1,
      },
    });
  });
});

describe('buildPlaceSuggestRequest', () => {
  it('asks for the names, popular places a little higher, ties by id', () => {
    expect(buildPlaceSuggestRequest('pat', 5)).toEqual({
      size: 5,
      _source: ['id', 'slug', 'name', 'name_full', 'level'],
      query: {
        bool: {
          must: [{ bool: { should: [suggestQuery('pat')], minimum_should_match: 1 } }],
          should: [{ term: { popular: { value: true, boost: 0.5 } } }],
        },
      },
      sort: [{ _score: { order: 'desc' } }, { id: { order: 'asc' } }],
    });
  });

  it('also takes the places found by prefix, and asks for as many more hits as there are of them', () => {
    expect(buildPlaceSuggestRequest('ภูเก', 5, [7, 3])).toMatchObject({
      size: 7,
      query: {
        bool: {
          must: [{ bool: { should: [suggestQuery('ภูเก'), { terms: { id: [7, 3] } }], minimum_should_match: 1 } }],
        },
      },
    });
  });
});

describe('orderSuggestedPlaces', () => {
  const hits = [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }];

  it('puts the places found by prefix first, in their order, then the engine’s, each once', () => {
    expect(orderSuggestedPlaces(hits, [3, 1], 10).map((p) => p.id)).toEqual([3, 1, 2, 4]);
  });

  it('leaves out a prefix place the engine did not return, and cuts at size', () => {
    expect(orderSuggestedPlaces(hits, [9, 4], 2).map((p) => p.id)).toEqual([4, 1]);
    expect(orderSuggestedPlaces(hits, [], 3).map((p) => p.id)).toEqual([1, 2, 3]);
  });
});

describe('buildPlacesWithKindRequest', () => {
  it('counts listings of the kind under each candidate place, at any depth, and returns no hits', () => {
    expect(buildPlacesWithKindRequest([5, 6], 'food')).toEqual({
      size: 0,
      query: { bool: { filter: [{ term: { kind: 'food' } }, { terms: { place_path_ids: [5, 6] } }] } },
      aggs: { places: { terms: { field: 'place_path_ids', include: [5, 6], size: 2 } } },
    });
  });
});

describe('buildListingSuggestRequest', () => {
  it('asks for the fields a suggestion shows, best match first, then the most rated, then by id', () => {
    expect(buildListingSuggestRequest('yoga', undefined, 4)).toEqual({
      size: 4,
      _source: ['id', 'kind', 'title', 'original_lang', 'place'],
      query: { bool: { must: [suggestQuery('yoga')] } },
      sort: [{ _score: { order: 'desc' } }, { rating_count: { order: 'desc' } }, { id: { order: 'asc' } }],
    });
  });

  it('with a kind, only listings of that kind', () => {
    expect(buildListingSuggestRequest('yoga', 'experience', 4).query).toEqual({
      bool: { must: [suggestQuery('yoga')], filter: [{ term: { kind: 'experience' } }] },
    });
  });
});

describe('suggestions a guest cannot tell apart come once', () => {
  it('keeps the first of each title and place, case and spaces aside, up to the limit', () => {
    const listings = [
      { id: 1, title: 'Scooter for rent in Karon', place: 'Karon' },
      { id: 2, title: 'Scooter for rent in Kata', place: 'Kata' },
      { id: 3, title: 'scooter  for rent in karon', place: 'Karon' },
      { id: 4, title: 'Scooter for rent in Karon', place: 'Patong' },
      { id: 5, title: 'Car rental in Karon', place: 'Karon' },
    ];
    const folded = foldSame(listings, (l) => `${l.title}\n${l.place}`, 3);
    expect(folded.map((l) => l.id)).toEqual([1, 2, 4]);
  });
});

describe('categoryCodesOf: the categories the words of q name', () => {
  it('lists category codes in the order typed, once, leaving amenities and property types out', () => {
    const word = (vocabulary: Array<{ field: 'category' | 'amenity' | 'property_type'; code: string }>) => ({
      text: 'w',
      alternatives: [],
      vocabulary,
      generic: false,
      kinds: [],
    });
    const plan = {
      words: [
        word([{ field: 'category', code: 'diving' }]),
        word([{ field: 'amenity', code: 'pool' }]),
        word([
          { field: 'category', code: 'massage' },
          { field: 'category', code: 'diving' },
        ]),
        word([{ field: 'property_type', code: 'villa' }]),
      ],
    };
    expect(categoryCodesOf(plan)).toEqual(['diving', 'massage']);
    expect(categoryCodesOf(null)).toEqual([]);
  });
});
