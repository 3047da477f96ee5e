import { describe, expect, it } from 'vitest';
import { parseMapPath } from './resources.ts';

const parse = (p: string, maxZoom = 14) => parseMapPath(p, { maxZoom });

describe('map resource allow-list (pure)', () => {
  it('names the kind, the upstream path and the fallback content type of each allowed shape', () => {
    expect(parse('style.json')).toEqual({ kind: 'style', upstreamPath: 'style.json', contentType: 'application/json' });
    expect(parse('tiles.json')?.kind).toBe('tilejson');
    expect(parse('relief.json')?.kind).toBe('relief_tilejson');
    expect(parse('tiles/0/0/0.pbf')).toEqual({
      kind: 'tile',
      upstreamPath: 'tiles/0/0/0.pbf',
      contentType: 'application/x-protobuf',
    });
    expect(parse('tiles/14/16383/16383.webp')?.contentType).toBe('image/webp');
    expect(parse('relief/3/7/7.png')).toEqual({
      kind: 'relief',
      upstreamPath: 'relief/3/7/7.png',
      contentType: 'image/png',
    });
    expect(parse('fonts/Open%20Sans%20Bold/256-511.pbf')).toEqual({
      kind: 'glyphs',
      upstreamPath: 'fonts/Open%20Sans%20Bold/256-511.pbf',
      contentType: 'application/x-protobuf',
    });
    expect(parse('sprites/streets@2x.json')).toEqual({
      kind: 'sprite',
      upstreamPath: 'sprites/streets@2x.json',
      contentType: 'application/json',
    });
  });

  it('keeps tile coordinates inside the zoom range and the 2^z grid', () => {
    expect(parse('tiles/14/0/0.pbf', 14)).not.toBeNull();
    expect(parse('tiles/15/0/0.pbf', 14)).toBeNull();
    expect(parse('tiles/2/4/0.pbf')).toBeNull();
    expect(parse('tiles/2/3/3.pbf')).not.toBeNull();
    expect(parse('tiles/2/0/00.pbf')).toBeNull();
    expect(parse('tiles/2/0/1e0.pbf')).toBeNull();
    expect(parse('tiles/2/0/ 1.pbf')).toBeNull();
  });

  it('accepts only whole 256-glyph ranges', () => {
    expect(parse('fonts/A/0-255.pbf')).not.toBeNull();
    expect(parse('fonts/A/65280-65535.pbf')).not.toBeNull();
    expect(parse('fonts/A/0-256.pbf')).toBeNull();
    expect(parse('fonts/A/128-383.pbf')).toBeNull();
    expect(parse('fonts/%20A/0-255.pbf')).toBeNull();
  });

  it('refuses path tricks before any shape is considered', () => {
    for (const p of [
      '',
      '/style.json',
      'style.json/',
      'a//style.json',
      '..',
      '.%2E/style.json',
      'tiles%2F0%2F0%2F0.pbf',
      'tiles%5C0/0/0.pbf',
      'tiles/0/0/0.pbf%00',
      'fonts/%25/0-255.pbf',
      'fonts/%E0%A4%A/0-255.pbf',
      'x'.repeat(600),
    ]) {
      expect(parse(p), p).toBeNull();
    }
  });
});
