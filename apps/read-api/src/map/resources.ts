/**
 * The allow-list of map resources the proxy passes to the upstream provider (spec 4.4).
 * Only these path shapes, relative to `/v1/map/` and to MAP_UPSTREAM_URL alike, are proxied:
 *
 * | kind            | path                                  | rule |
 * | --------------- | ------------------------------------- | ---- |
 * | style           | `style.json`                          | the map style |
 * | tilejson        | `tiles.json`                          | TileJSON of the vector/raster tiles |
 * | tile            | `tiles/{z}/{x}/{y}.{pbf,png,webp}`    | 0 ≤ z ≤ MAP_MAX_ZOOM, 0 ≤ x, y < 2^z |
 * | relief_tilejson | `relief.json`                         | TileJSON of the terrain (relief) tiles |
 * | relief          | `relief/{z}/{x}/{y}.{png,webp}`       | as tiles |
 * | glyphs          | `fonts/{fontstack}/{start}-{end}.pbf` | fontstack: letters, digits, space, `,`, `-`, `_` (≤ 200); start a multiple of 256 up to 65280, end = start + 255 |
 * | sprite          | `sprites/{name}{@2x}?.{json,png}`     | name: letters, digits, `-`, `_` (≤ 64) |
 *
 * Numbers are plain decimals without leading zeros. Anything else — another resource, an empty
 * segment (`//`), `.` or `..`, a backslash, a control character, an encoded slash or backslash,
 * a double-encoded character, an absolute URL — is not a map resource, and the caller answers
 * 404 without contacting the upstream. The query string is never forwarded.
 */
export type MapResourceKind = 'style' | 'tilejson' | 'tile' | 'relief_tilejson' | 'relief' | 'glyphs' | 'sprite';

export interface MapResource {
  kind: MapResourceKind;
  /** Path to append to the upstream base URL, re-encoded segment by segment. */
  upstreamPath: string;
  /**
   * The content type the proxy answers with, fixed by the kind and extension, whatever the
   * upstream names (issue 32 point 4): a provider's word never decides how a browser reads a
   * body served from the API's origin.
   */
  contentType: string;
}

const MAX_PATH_LENGTH = 512;
const NUMBER = /^(0|[1-9][0-9]{0,7})$/;
const FONTSTACK = /^[A-Za-z0-9 ,_-]{1,200}$/;
const SPRITE = /^([A-Za-z0-9_-]{1,64})(@2x)?\.(json|png)$/;
const FONT_RANGE = /^(0|[1-9][0-9]{0,4})-([1-9][0-9]{0,4})\.pbf$/;
const UNSAFE = /[\\/\u0000-\u001f\u007f%]/;

const CONTENT_TYPES: Record<string, string> = {
  json: 'application/json',
  pbf: 'application/x-protobuf',
  png: 'image/png',
  webp: 'image/webp',
};

function decodeSegments(raw: string): string[] | null {
  if (raw.length === 0 || raw.length > MAX_PATH_LENGTH) return null;
  if (/[\\\u0000-\u001f\u007f]/.test(raw)) return null;
  const out: string[] = [];
  for (const segment of raw.split('/')) {
    if (segment === '') return null;
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return null;
    }
    // After one decoding nothing may remain that changes the path: no slash or backslash,
    // no `%` (double encoding), no dot segment.
    if (decoded === '.' || decoded === '..' || UNSAFE.test(decoded)) return null;
    out.push(decoded);
  }
  return out;
}

function tileCoords(z: string, x: string, y: string, maxZoom: number): boolean {
  if (!NUMBER.test(z) || !NUMBER.test(x) || !NUMBER.test(y)) return false;
  const zoom = Number(z);
  if (zoom > maxZoom) return false;
  const size = 2 ** zoom;
  return Number(x) < size && Number(y) < size;
}

/** Percent-encodes a checked segment as map clients do: `@` and `,` stay literal (both are pchar). */
function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/%40/g, '@').replace(/%2C/g, ',');
}

function resource(kind: MapResourceKind, segments: string[], ext: string): MapResource {
  return {
    kind,
    upstreamPath: segments.map(encodeSegment).join('/'),
    contentType: CONTENT_TYPES[ext] ?? 'application/octet-stream',
  };
}

/** `raw` is the request path after `/v1/map/`, still percent-encoded, without the query. */
export function parseMapPath(raw: string, opts: { maxZoom: number }): MapResource | null {
  const s = decodeSegments(raw);
  if (!s) return null;
  const [first, ...rest] = s;

  if (rest.length === 0) {
    if (first === 'style.json') return resource('style', s, 'json');
    if (first === 'tiles.json') return resource('tilejson', s, 'json');
    if (first === 'relief.json') return resource('relief_tilejson', s, 'json');
    return null;
  }

  if ((first === 'tiles' || first === 'relief') && rest.length === 3) {
    const [z = '', x = '', file = ''] = rest;
    const m = /^([^.]+)\.(pbf|png|webp)$/.exec(file);
    if (!m || (first === 'relief' && m[2] === 'pbf')) return null;
    if (!tileCoords(z, x, m[1] ?? '', opts.maxZoom)) return null;
    return resource(first === 'tiles' ? 'tile' : 'relief', s, m[2] ?? '');
  }

  if (first === 'fonts' && rest.length === 2) {
    const [stack = '', file = ''] = rest;
    const m = FONT_RANGE.exec(file);
    if (!FONTSTACK.test(stack) || stack.trim() !== stack || !m) return null;
    const start = Number(m[1]);
    const end = Number(m[2]);
    if (start % 256 !== 0 || end !== start + 255 || end > 65535) return null;
    return resource('glyphs', s, 'pbf');
  }

  if (first === 'sprites' && rest.length === 1) {
    const m = SPRITE.exec(rest[0] ?? '');
    if (!m) return null;
    return resource('sprite', s, m[3] ?? '');
  }

  return null;
}

/**
 * Upstream content types that are never a map resource and that a browser would run or render as
 * a document: HTML, XML (SVG included), scripts, style sheets. Such an answer is refused (502),
 * whatever the path asked for (issue 32 point 4: a provider's HTML ran on the API's origin).
 */
const ACTIVE_TYPE =
  /^(text\/(html|xml|javascript|ecmascript|css|xsl)|application\/(xhtml\+xml|xml|javascript|ecmascript|x-javascript)|image\/svg\+xml|[a-z0-9.+-]+\/[a-z0-9.-]+\+xml|multipart\/)/;

export function isActiveContentType(contentType: string | string[] | undefined): boolean {
  if (contentType === undefined) return false;
  const first = Array.isArray(contentType) ? contentType.join(',') : contentType;
  return ACTIVE_TYPE.test(first.trim().toLowerCase());
}

/**
 * Whether the first bytes of an uncompressed body are markup a browser would take for a
 * document (`<!doctype`, `<html`, `<script`, `<svg`, `<?xml`, ...), after an optional byte order
 * mark and white space: a provider that mislabels its HTML is refused too. No style, TileJSON,
 * tile, glyph range or sprite starts that way (JSON starts with `{`, PNG and WebP with their
 * signatures, protobuf with a field tag).
 */
export function looksLikeMarkup(head: Uint8Array): boolean {
  const text = Buffer.from(head.subarray(0, 256))
    .toString('latin1')
    .replace(/^(\xef\xbb\xbf|\xfe\xff|\xff\xfe)/, '')
    .trimStart()
    .toLowerCase();
  return /^<(!doctype|!--|\?xml|html|head|body|script|svg|iframe|meta|title|div|a[\s>]|img|object|embed|style|base|form)/.test(
    text,
  );
}
