import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/test-app.ts';
import { expectEnvelope, http, type HttpResult } from '../../support/http.ts';
import { signedIn, startProfileApp, type Guest } from './support.ts';
import { gpsTags, jpegWithGps, pngBomb, pngImage, readFixture, webpImage } from './images.ts';

let t: TestApp;
beforeAll(async () => {
  // A 1 MB upload limit keeps the oversize case small; every real image here is a few KB.
  t = await startProfileApp({ MAX_UPLOAD_MB: 1 });
});
afterAll(async () => t?.close());

async function upload(
  g: Guest | null,
  bytes: Buffer,
  type: string,
  opts: { field?: string; filename?: string } = {},
): Promise<HttpResult> {
  const form = new FormData();
  form.append(opts.field ?? 'file', new Blob([bytes], { type }), opts.filename ?? 'photo');
  const res = await fetch(`${t.url}/v1/me/avatar`, {
    method: 'PUT',
    body: form,
    headers: g ? { authorization: `Bearer ${g.token}` } : {},
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
}

/** GET of a file URL (absolute or a path), binary-safe. */
async function download(url: string, token?: string) {
  const full = url.startsWith('http') ? url : `${t.url}${url}`;
  const res = await fetch(full, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes, json: () => JSON.parse(bytes.toString('utf8')) };
}

/** The public avatar URL: `/v1/media/avatars/<64 hex>.jpg`, the first 32 hex digits being the file's id. */
const AVATAR_URL =
  /\/v1\/media\/avatars\/(([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{12})[0-9a-f]{32})\.jpg$/;
const nameOf = (url: string) => AVATAR_URL.exec(url)![1]!;
const mediaIdOf = (url: string) => AVATAR_URL.exec(url)!.slice(2, 7).join('-');

function expectRefused(res: HttpResult, reason: string) {
  const e = expectEnvelope(res, 400, 'validation_error');
  expect(e.details.field).toBe('file');
  expect(e.details.reason).toBe(reason);
  return e;
}

describe('PUT /v1/me/avatar', () => {
  it('strips the GPS position and every other EXIF field from a JPEG photo', async () => {
    const g = await signedIn(t);
    const photo = await jpegWithGps();
    const before = await sharp(photo).metadata();
    // The upload really carries a position: GPS latitude (2) and longitude (4) tags with their refs.
    expect(gpsTags(before.exif)).toEqual(expect.arrayContaining([1, 2, 3, 4]));

    const res = await upload(g, photo, 'image/jpeg', { filename: 'beach.jpg' });
    expect(res.status).toBe(200);
    expect(res.body.avatar_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/media\/avatars\/[0-9a-f]{64}\.jpg$/);

    // What the owner loads has no EXIF (so no GPS), no XMP, no ICC.
    const file = await download(res.body.avatar_url, g.token);
    expect(file.status).toBe(200);
    const after = await sharp(file.bytes).metadata();
    expect(after.format).toBe('jpeg');
    expect(after.exif).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(after.icc).toBeUndefined();
    expect(gpsTags(after.exif)).toEqual([]);
    expect(file.bytes.includes(Buffer.from('TestCam'))).toBe(false);

    // And so do the bytes at rest in the file storage.
    const stored = await readFile(path.join(t.config.STORAGE_DIR, 'avatars', `${nameOf(res.body.avatar_url)}.jpg`));
    expect((await sharp(stored).metadata()).exif).toBeUndefined();

    const me = await http(t.url, 'GET', '/v1/me', { token: g.token });
    expect(me.body.avatar_url).toBe(res.body.avatar_url);
  });

  it('accepts a real HEIC photo and stores it re-encoded as JPEG', async () => {
    const g = await signedIn(t);
    const heic = await readFixture('photo.heic');
    expect(heic.toString('latin1', 4, 12)).toBe('ftypheic');
    const res = await upload(g, heic, 'image/heic', { filename: 'IMG_0001.HEIC' });
    expect(res.status).toBe(200);
    const file = await download(res.body.avatar_url, g.token);
    expect(file.headers.get('content-type')).toBe('image/jpeg');
    const meta = await sharp(file.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 96, 64]);
    // The picture survived decoding: the top-left corner is the fixture's red-orange.
    const { data } = await sharp(file.bytes)
      .extract({ left: 2, top: 2, width: 1, height: 1 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(150);
    expect(data[2]).toBeLessThan(100);
  });

  it('strips the GPS position from a HEIC photo (as phones write them)', async () => {
    const g = await signedIn(t);
    const heic = await readFixture('photo-gps.heic');
    // The fixture's EXIF item (a TIFF block inside the HEIF container) holds a GPS position.
    const tiffAt = heic.indexOf(Buffer.from('II*\0', 'latin1'));
    expect(tiffAt).toBeGreaterThan(0);
    expect(gpsTags(heic.subarray(tiffAt))).toEqual(expect.arrayContaining([1, 2, 3, 4]));
    const res = await upload(g, heic, 'image/heif');
    expect(res.status).toBe(200);
    const file = await download(res.body.avatar_url, g.token);
    const meta = await sharp(file.bytes).metadata();
    expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(['jpeg', 96, 64, undefined]);
    expect(file.bytes.includes(Buffer.from('TestCam'))).toBe(false);
    expect(file.bytes.indexOf(Buffer.from('II*\0', 'latin1'))).toBe(-1);
  });

  it('applies the EXIF orientation before dropping it, so the photo stays upright', async () => {
    const g = await signedIn(t);
    const sideways = await sharp({ create: { width: 60, height: 40, channels: 3, background: '#225588' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect((await sharp(sideways).metadata()).orientation).toBe(6);
    const res = await upload(g, sideways, 'image/jpeg');
    const meta = await sharp((await download(res.body.avatar_url, g.token)).bytes).metadata();
    expect([meta.width, meta.height, meta.orientation]).toEqual([40, 60, undefined]);
  });

  it('accepts PNG and WebP', async () => {
    const g = await signedIn(t);
    for (const [bytes, type] of [
      [await pngImage(), 'image/png'],
      [await webpImage(), 'image/webp'],
    ] as const) {
      const res = await upload(g, bytes, type);
      expect(res.status, `${type}: ${res.text}`).toBe(200);
      const file = await download(res.body.avatar_url, g.token);
      expect((await sharp(file.bytes).metadata()).format).toBe('jpeg');
    }
  });

  it('scales a large photo down to the configured longest side', async () => {
    const g = await signedIn(t);
    const big = await sharp({ create: { width: 3000, height: 1500, channels: 3, background: '#123456' } })
      .jpeg()
      .toBuffer();
    const res = await upload(g, big, 'image/jpeg');
    const meta = await sharp((await download(res.body.avatar_url, g.token)).bytes).metadata();
    expect([meta.width, meta.height]).toEqual([t.config.AVATAR_MAX_SIDE_PX, t.config.AVATAR_MAX_SIDE_PX / 2]);
  });

  it('refuses a file that is not an image', async () => {
    const g = await signedIn(t);
    expectRefused(await upload(g, Buffer.from('%PDF-1.7 not a picture'), 'image/jpeg'), 'unsupported_type');
    expectRefused(
      await upload(g, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml'),
      'unsupported_type',
    );
  });

  it('recognises an image by its bytes: the declared type is a hint, never a reason to refuse (issue 10 point 4)', async () => {
    const g = await signedIn(t);
    const cases: Array<[string, Buffer, string]> = [
      // curl's and Flutter's default for .webp and .heic
      ['webp as octet-stream', await webpImage(), 'application/octet-stream'],
      ['heic as octet-stream', await readFixture('photo.heic'), 'application/octet-stream'],
      ['png declared as jpeg', await pngImage(), 'image/jpeg'],
      ['jpeg declared as heic', await jpegWithGps(), 'image/heic'],
      ['jpeg with no type', await jpegWithGps(), ''],
      ['png declared as text', await pngImage(), 'text/plain'],
    ];
    for (const [what, bytes, type] of cases) {
      const res = await upload(g, bytes, type);
      expect(res.status, `${what}: ${res.text}`).toBe(200);
      const file = await download(res.body.avatar_url);
      expect((await sharp(file.bytes).metadata()).format, what).toBe('jpeg');
    }
  });

  it('refuses a file over max_upload_mb', async () => {
    const g = await signedIn(t);
    const jpeg = await jpegWithGps();
    const oversize = Buffer.concat([jpeg, Buffer.alloc(1_048_576 + 10, 0x20)]);
    const e = expectRefused(await upload(g, oversize, 'image/jpeg'), 'too_large');
    expect(e.details.max_upload_mb).toBe(1);
  });

  it('refuses a decompression bomb before decoding it', async () => {
    const g = await signedIn(t);
    const bomb = pngBomb();
    expect(bomb.length).toBeLessThan(1_048_576);
    const meta = await sharp(bomb, { limitInputPixels: false }).metadata();
    expect(meta.width! * meta.height!).toBeGreaterThan(t.config.MAX_IMAGE_MEGAPIXELS * 1_000_000);
    const e = expectRefused(await upload(g, bomb, 'image/png'), 'too_many_pixels');
    expect(e.details).toMatchObject({ width: 20_000, height: 20_000, max_megapixels: t.config.MAX_IMAGE_MEGAPIXELS });
  });

  it('refuses a HEIC decompression bomb from its container dimensions, before decoding it', async () => {
    const g = await signedIn(t);
    // 8000x6000 (48 MP) of one colour in 11 KB, made with heif-enc from Debian's libheif-examples.
    const bomb = await readFixture('bomb-48mp.heic');
    expect(bomb.length).toBeLessThan(64 * 1024);
    const e = expectRefused(await upload(g, bomb, 'image/heic'), 'too_many_pixels');
    expect(e.details).toMatchObject({ width: 8000, height: 6000, max_megapixels: t.config.MAX_HEIC_MEGAPIXELS });
  });

  it('refuses a truncated image, a missing part and a body that is not multipart', async () => {
    const g = await signedIn(t);
    const jpeg = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#884422' } })
      .jpeg()
      .toBuffer();
    expectRefused(await upload(g, jpeg.subarray(0, 200), 'image/jpeg'), 'corrupt');
    expectRefused(await upload(g, jpeg, 'image/jpeg', { field: 'photo' }), 'missing');
    const json = await http(t.url, 'PUT', '/v1/me/avatar', { token: g.token, body: { file: 'x' } });
    expectRefused(json, 'not_multipart');
    // Nothing of the refused uploads became an avatar.
    expect((await http(t.url, 'GET', '/v1/me', { token: g.token })).body.avatar_url).toBeNull();
  });

  it('needs sign-in and a confirmed email', async () => {
    expectEnvelope(await upload(null, await pngImage(), 'image/png'), 401, 'unauthorized');
    const unconfirmed = await signedIn(t, { confirmed: false });
    expectEnvelope(await upload(unconfirmed, await pngImage(), 'image/png'), 403, 'email_not_confirmed');
  });

  it('a new upload gets a new URL and the old file is gone', async () => {
    const g = await signedIn(t);
    const first = await upload(g, await pngImage(), 'image/png');
    const second = await upload(g, await webpImage(), 'image/webp');
    expect(second.body.avatar_url).not.toBe(first.body.avatar_url);
    expect((await download(first.body.avatar_url, g.token)).status).toBe(404);
    expect((await download(second.body.avatar_url, g.token)).status).toBe(200);
  });
});

describe('DELETE /v1/me/avatar', () => {
  it('answers 204, clears avatar_url and removes the file; repeating it is harmless', async () => {
    const g = await signedIn(t);
    const up = await upload(g, await pngImage(), 'image/png');
    const del = await http(t.url, 'DELETE', '/v1/me/avatar', { token: g.token });
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await http(t.url, 'GET', '/v1/me', { token: g.token })).body.avatar_url).toBeNull();
    expect((await download(up.body.avatar_url, g.token)).status).toBe(404);
    const stored = path.join(t.config.STORAGE_DIR, 'avatars', `${nameOf(up.body.avatar_url)}.jpg`);
    await expect(readFile(stored)).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await http(t.url, 'DELETE', '/v1/me/avatar', { token: g.token })).status).toBe(204);
  });
});

describe('private files: GET /v1/media/{id} and tickets', () => {
  async function ownerWithFile() {
    const g = await signedIn(t);
    const up = await upload(g, await pngImage(), 'image/png');
    expect(up.status).toBe(200);
    const id = mediaIdOf(up.body.avatar_url);
    // The avatar is also a private file: its private address is for the owner and tickets only.
    const url = (up.body.avatar_url as string).replace(/\/v1\/media\/avatars\/.*$/, `/v1/media/${id}`);
    return { g, url, id };
  }
  const ticketFor = (g: Guest, id: string) => http(t.url, 'POST', `/v1/media/${id}/ticket`, { token: g.token });

  it('streams the file to its owner by bearer token with type, length and no-store caching', async () => {
    const { g, url } = await ownerWithFile();
    const file = await download(url, g.token);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/jpeg');
    expect(file.headers.get('content-length')).toBe(String(file.bytes.length));
    expect(file.headers.get('cache-control')).toBe('private, no-store');
    expect(file.bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });

  it('gives anyone else the same 404 as a file that does not exist', async () => {
    const { g, url, id } = await ownerWithFile();
    const stranger = await signedIn(t);
    const missing = await download(`/v1/media/00000000-0000-4000-8000-000000000000`, g.token);
    expect(missing.status).toBe(404);
    for (const res of [await download(url, stranger.token), await download(url)]) {
      expect(res.status).toBe(404);
      expect(res.json().error.code).toBe('not_found');
      expect(res.json().error.message).toBe(missing.json().error.message);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
    }
    // Nor can a stranger get a ticket for it: the right is checked before a ticket is issued.
    expectEnvelope(await ticketFor(stranger, id), 404, 'not_found');
  });

  it('issues a 60-second ticket that opens the file once, without a token', async () => {
    const { g, url, id } = await ownerWithFile();
    const res = await ticketFor(g, id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ticket: expect.any(String), expires_in: 60 });
    expect(res.body.url).toBe(`${url}?t=${encodeURIComponent(res.body.ticket)}`);
    const first = await download(res.body.url);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('private, no-store');
    expect(first.bytes).toEqual((await download(url, g.token)).bytes);
    const again = await download(res.body.url);
    expect(again.status).toBe(404);
  });

  it('a ticket is single use when two downloads race', async () => {
    const { g, id } = await ownerWithFile();
    for (let round = 0; round < 5; round++) {
      const { body } = await ticketFor(g, id);
      const results = await Promise.all([download(body.url), download(body.url)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 404]);
    }
  });

  it('a ticket opens only its own file, and not after it expired', async () => {
    const a = await ownerWithFile();
    const second = await upload(a.g, await webpImage(), 'image/webp');
    const otherId = mediaIdOf(second.body.avatar_url);
    // The first avatar was replaced: its ticket is refused, since the right is checked again.
    expectEnvelope(await ticketFor(a.g, a.id), 404, 'not_found');
    const { body } = await ticketFor(a.g, otherId);
    expect((await download(`/v1/media/${a.id}?t=${encodeURIComponent(body.ticket)}`)).status).toBe(404);

    const fresh = await ticketFor(a.g, otherId);
    const hash = createHash('sha256').update(fresh.body.ticket).digest('hex');
    // The ticket's 60 seconds are over (moved in the database rather than waited out).
    await t.sql.query(`update media_tickets set expires_at = now() - interval '1 second' where token_hash = $1`, [
      hash,
    ]);
    expect((await download(fresh.body.url)).status).toBe(404);
  });

  it('a ticket belongs to its session: after logout it opens nothing', async () => {
    const { g, id } = await ownerWithFile();
    const { body } = await ticketFor(g, id);
    expect((await http(t.url, 'POST', '/v1/auth/logout', { token: g.token })).status).toBe(200);
    expect((await download(body.url)).status).toBe(404);
  });

  it('a HEAD request cannot spend a ticket', async () => {
    const { g, id } = await ownerWithFile();
    const { body } = await ticketFor(g, id);
    const head = await fetch(body.url, { method: 'HEAD' });
    expect(head.status).not.toBe(200);
    expect((await download(body.url)).status).toBe(200);
  });

  it('two racing uploads leave exactly one live avatar', async () => {
    const g = await signedIn(t);
    const [a, b] = await Promise.all([
      upload(g, await pngImage(), 'image/png'),
      upload(g, await webpImage(), 'image/webp'),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const { rows } = await t.sql.query(
      'select count(*)::int as n from media_files where owner_account_id = $1 and deleted_at is null',
      [g.accountId],
    );
    expect(rows[0].n).toBe(1);
    const me = await http(t.url, 'GET', '/v1/me', { token: g.token });
    expect([a.body.avatar_url, b.body.avatar_url]).toContain(me.body.avatar_url);
    expect((await download(me.body.avatar_url, g.token)).status).toBe(200);
  });

  it('a bad media id is 400 and issuing a ticket needs sign-in', async () => {
    const { g } = await ownerWithFile();
    const e = expectEnvelope(
      await http(t.url, 'GET', '/v1/media/not-a-uuid', { token: g.token }),
      400,
      'validation_error',
    );
    expect(e.details.field).toBe('media_id');
    expectEnvelope(
      await http(t.url, 'POST', '/v1/media/00000000-0000-4000-8000-000000000000/ticket'),
      401,
      'unauthorized',
    );
  });
});
