import { describe, expect, it } from 'vitest';
import { isActiveContentType, looksLikeMarkup, parseMapPath } from './resources.ts';

const parse = (p: string, maxZoom = 14) => parseMapPath(p, { maxZoom });

describe('map resource allow-list (pure)', () => {
  it('names the kind, the upstream path and the fixed content type of each allowed shape', () => {
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

describe('what the proxy refuses from the provider (issue 32 point 4)', () => {
  it('refuses types a browser runs or renders as a document, in any case and with parameters', () => {
    for (const type of [
      'text/html',
      'TEXT/HTML; charset=utf-8',
      ' text/html',
      'application/xhtml+xml',
      'image/svg+xml',
      'text/xml',
      'application/xml',
      'application/rss+xml',
      'text/javascript',
      'application/javascript',
      'text/css',
      'multipart/x-mixed-replace; boundary=x',
      ['text/html'],
    ]) {
      expect(isActiveContentType(type), String(type)).toBe(true);
    }
    for (const type of [
      undefined,
      'application/json',
      'application/x-protobuf',
      'application/vnd.mapbox-vector-tile',
      'application/octet-stream',
      'binary/octet-stream',
      'image/png',
      'image/webp',
      'text/plain',
    ]) {
      expect(isActiveContentType(type), String(type)).toBe(false);
    }
  });

  it('recognises markup from its first bytes, and no map resource as markup', () => {
    const yes = [
      '<!DOCTYPE html><p>',
      '\ufeff  <html>',
      '\n\t<script>alert(1)</script>',
      '<svg onload=x>',
      '<?xml version="1.0"?>',
      '<!-- x -->',
      '<a href=x>',
    ];
    for (const text of yes) expect(looksLikeMarkup(Buffer.from(text, 'utf8')), text).toBe(true);
    const no = [
      Buffer.from('{"version":8,"layers":[]}'),
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.from('RIFF\0\0\0\0WEBPVP8 '),
      Buffer.from([0x1a, 0x03, 0x61, 0x62, 0x63]),
      Buffer.from([0x1f, 0x8b, 0x08, 0x00]),
      Buffer.from('< 3 is not a tag'),
      Buffer.alloc(0),
    ];
    for (const bytes of no) expect(looksLikeMarkup(bytes), bytes.toString('hex')).toBe(false);
  });
});
