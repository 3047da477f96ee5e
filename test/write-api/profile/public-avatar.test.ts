import { request as rawRequest } from 'node:http';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readApi } from '@guest/read-api';
import { writeApi } from '@guest/write-api';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { expectEnvelope, http } from '../../support/http.ts';
import { relaxedLimits } from '../auth/support.ts';
import { signedIn, type Guest } from './support.ts';
import { pngImage, webpImage } from './images.ts';

/**
 * Issue 10 points 5 and 6: `avatar_url` is shown in an image element (no token), and every
 * absolute URL stands on PUBLIC_BASE_URL whatever Host a request carries.
 */
const PUBLIC = 'https://guest.example.test/api';
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ apps: [writeApi, readApi], config: { ...relaxedLimits, PUBLIC_BASE_URL: `${PUBLIC}/` } });
});
afterAll(async () => t?.close());

async function upload(g: Guest, bytes: Buffer, type = 'application/octet-stream') {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type }), 'photo');
  const res = await fetch(`${t.url}/v1/me/avatar`, {
    method: 'PUT',
    body: form,
    headers: { authorization: `Bearer ${g.token}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { avatar_url: string }).avatar_url;
}

/** What an image element does: GET the URL, no Authorization, no cookie. */
async function asImageElement(url: string) {
  expect(url.startsWith(`${PUBLIC}/v1/`)).toBe(true);
  const res = await fetch(`${t.url}${url.slice(PUBLIC.length)}`);
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** A request with a Host header of the client's choosing (fetch will not send a forged one). */
function withHost(path: string, host: string, token?: string): Promise<{ status: number; body: any }> {
  const u = new URL(t.url);
  return new Promise((resolve, reject) => {
    const req = rawRequest(
      {
        host: u.hostname,
        port: u.port,
        path,
        headers: { host, 'x-forwarded-host': host, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      },
      (r) => {
        let body = '';
        r.on('data', (c) => (body += c));
        r.on('end', () => resolve({ status: r.statusCode ?? 0, body: body ? JSON.parse(body) : undefined }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('avatar_url works in an image element', () => {
  it('loads without a token, as an immutable public image', async () => {
    const g = await signedIn(t);
    const url = await upload(g, await pngImage());
    expect(url).toMatch(/\/v1\/media\/avatars\/[0-9a-f]{64}\.jpg$/);
    const img = await asImageElement(url);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/jpeg');
    expect(img.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(img.headers.get('content-length')).toBe(String(img.bytes.length));
    expect((await sharp(img.bytes).metadata()).format).toBe('jpeg');
    expect((await http(t.url, 'GET', '/v1/me', { token: g.token })).body.avatar_url).toBe(url);
  });

  it('a new upload is a new URL; the old one is gone, and so is the removed one', async () => {
    const g = await signedIn(t);
    const first = await upload(g, await pngImage());
    const second = await upload(g, await webpImage());
    expect(second).not.toBe(first);
    expectEnvelope({ ...(await http(t.url, 'GET', first.slice(PUBLIC.length))) }, 404, 'not_found');
    expect((await asImageElement(second)).status).toBe(200);
    expect((await http(t.url, 'DELETE', '/v1/me/avatar', { token: g.token })).status).toBe(204);
    expect((await asImageElement(second)).status).toBe(404);
  });

  it('is unguessable: a made-up name, or the file id alone, is 404', async () => {
    const g = await signedIn(t);
    const url = await upload(g, await pngImage());
    const name = /avatars\/([0-9a-f]{64})\.jpg$/.exec(url)![1]!;
    const wrongDigest = `${name.slice(0, 32)}${'0'.repeat(32)}`;
    for (const path of [
      `/v1/media/avatars/${wrongDigest}.jpg`,
      `/v1/media/avatars/${'a'.repeat(64)}.jpg`,
      '/v1/media/avatars/x.jpg',
    ]) {
      expectEnvelope(await http(t.url, 'GET', path), 404, 'not_found');
    }
  });

  it('the file stays private at /v1/media/{id}: only its owner, or a ticket, opens it there', async () => {
    const g = await signedIn(t);
    const url = await upload(g, await pngImage());
    const m = /avatars\/([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{12})/.exec(url)!;
    const id = m.slice(1, 6).join('-');
    expectEnvelope(await http(t.url, 'GET', `/v1/media/${id}`), 404, 'not_found');
    const ticket = await http(t.url, 'POST', `/v1/media/${id}/ticket`, { token: g.token });
    expect(ticket.body.url.startsWith(`${PUBLIC}/v1/media/${id}?t=`)).toBe(true);
    expect((await fetch(`${t.url}${ticket.body.url.slice(PUBLIC.length)}`)).status).toBe(200);
  });
});

describe('absolute URLs never come from the Host header', () => {
  it('avatar_url, /v1/config and /v1/nodes stand on PUBLIC_BASE_URL whatever Host says', async () => {
    const g = await signedIn(t);
    await upload(g, await pngImage());
    for (const host of ['evil.example', 'evil.example:8443', 'guest.example.test.evil.example']) {
      const me = await withHost('/v1/me', host, g.token);
      expect(me.status).toBe(200);
      expect(me.body.avatar_url.startsWith(`${PUBLIC}/v1/media/avatars/`)).toBe(true);
      const config = await withHost('/v1/config', host);
      expect(config.status).toBe(200);
      for (const [key, value] of Object.entries(config.body.map)) {
        if (key.endsWith('_url')) expect(String(value).startsWith(`${PUBLIC}/v1/map/`), key).toBe(true);
      }
      const nodes = await withHost('/v1/nodes', host);
      expect(nodes.body.origin).toEqual({ api_url: PUBLIC, files_url: PUBLIC });
      expect(JSON.stringify([me.body, config.body, nodes.body])).not.toContain('evil');
    }
  });

  it('without PUBLIC_BASE_URL (development) they stand on the configured address, not on Host', async () => {
    const dev = await startTestApp({ apps: [readApi] });
    try {
      const u = new URL(dev.url);
      const res = await new Promise<any>((resolve, reject) => {
        const req = rawRequest(
          { host: u.hostname, port: u.port, path: '/v1/config', headers: { host: 'evil.example' } },
          (r) => {
            let body = '';
            r.on('data', (c) => (body += c));
            r.on('end', () => resolve(JSON.parse(body)));
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(res.map.style_url).toBe(`${dev.url}/v1/map/style.json`);
    } finally {
      await dev.close();
    }
  });
});
