import { describe, expect, it } from 'vitest';
import { buildFilterValuesRequest, parseFilterValues } from './filter-values.ts';

describe('filter values: terms of the code-valued filters', () => {
  it('counts each field, in one request, for one kind or all', () => {
    const all = buildFilterValuesRequest(undefined) as { size: number; query: unknown; aggs: Record<string, unknown> };
    expect(all.size).toBe(0);
    expect(all.query).toEqual({ bool: { filter: [] } });
    expect(all.aggs.property_type).toEqual({
      terms: { field: 'stay.property_type', size: 100, order: [{ _count: 'desc' }, { _key: 'asc' }] },
    });
    expect(Object.keys(all.aggs).sort()).toEqual(
      ['diets', 'food_format', 'price_unit', 'property_type', 'room_type', 'transmission', 'vehicle_kind'].sort(),
    );
    expect(buildFilterValuesRequest('food').query).toEqual({ bool: { filter: [{ term: { kind: 'food' } }] } });
  });

  it('reads the buckets as code and count, every field present', () => {
    const v = parseFilterValues({ property_type: { buckets: [{ key: 'villa', doc_count: 3 }] } });
    expect(v.property_type).toEqual([{ code: 'villa', count: 3 }]);
    expect(v.diets).toEqual([]);
  });
});
