import { describe, expect, it } from 'vitest';
import { getTableColumns } from 'drizzle-orm';
import { schema } from '@guest/db';
import { documentFields, LISTING_ATTRIBUTES, type Attribute } from '@guest/catalog';
import { indexBody } from './index-bodies.ts';

/**
 * The listing attributes (libs/catalog/src/listing-attributes.ts) are declared once; what is
 * written by hand elsewhere must agree with them: the mapping of the listings index has each
 * document field they fill, with their index type, and each column they name is in its table.
 */
const mappings = indexBody('listings', 0).mappings as { properties: Record<string, any> };

function mappedType(field: string): string | undefined {
  let node: any = { properties: mappings.properties };
  for (const part of field.split('.')) node = node?.properties?.[part];
  return node?.type;
}

describe('listing attributes agree with the mapping and the tables', () => {
  it('every document field of an attribute is mapped with the attribute’s index type', () => {
    const wrong = documentFields()
      .map(({ field, index }) => ({ field, declared: index, mapped: mappedType(field) }))
      .filter((f) => f.mapped !== f.declared);
    expect(wrong).toEqual([]);
  });

  it('every column an attribute names is a column of its table', () => {
    const missing: string[] = [];
    for (const [name, a] of Object.entries(LISTING_ATTRIBUTES) as Array<[string, Attribute]>) {
      if (a.kinds) {
        for (const kind of a.kinds) {
          if (!(a.column in getTableColumns(schema.listingKindTables[kind])))
            missing.push(`${name}: listing_${kind}.${a.column}`);
        }
      } else if (a.source.table === 'listings' && !(a.source.column in getTableColumns(schema.listings))) {
        missing.push(`${name}: listings.${a.source.column}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('a block attribute’s column is its name in the database (the record’s field, snake_case)', () => {
    for (const [name, a] of Object.entries(LISTING_ATTRIBUTES) as Array<[string, Attribute]>) {
      if (!a.kinds) continue;
      for (const kind of a.kinds) {
        const columns: Record<string, { name: string }> = getTableColumns(schema.listingKindTables[kind]);
        expect(columns[a.column]?.name, `${kind}.${name}`).toBe(name);
      }
    }
  });
});
