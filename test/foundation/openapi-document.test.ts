import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readApi } from '@guest/read-api';
import { writeApi } from '@guest/write-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { http } from '../support/http.ts';

/**
 * The OpenAPI document as a client's tools get it from the one-base-URL server (issue 10, 7):
 * what generators and linters rely on. `npm run lint:openapi` runs the linters themselves.
 */
let t: TestApp;
let doc: any;
let ops: Array<{ key: string; op: any }>;
beforeAll(async () => {
  t = await startTestApp({ apps: [writeApi, readApi] });
  doc = (await http(t.url, 'GET', '/v1/openapi.json')).body;
  ops = Object.entries(doc.paths).flatMap(([path, item]: [string, any]) =>
    Object.entries(item).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
  );
});
afterAll(async () => t?.close());

const byId = (id: string) => ops.find((o) => o.op.operationId === id)!.op;

describe('OpenAPI document', () => {
  it('gives every operation a unique, meaningful operationId', () => {
    const missing = ops.filter((o) => !o.op.operationId).map((o) => o.key);
    expect(missing).toEqual([]);
    const ids = ops.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(['login', 'searchListings', 'getPlaceBySlug', 'getMapResource']));
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z]+$/);
  });

  it('says `security: []` on public operations and bearer on signed-in ones', () => {
    expect(ops.filter((o) => !Array.isArray(o.op.security)).map((o) => o.key)).toEqual([]);
    expect(byId('login').security).toEqual([]);
    expect(byId('getProfile').security).toEqual([{ bearer: [] }]);
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
  });

  it('has no fragment $id, no unused or twin component schemas and no internal references', () => {
    const text = JSON.stringify(doc);
    expect(text).not.toContain('"$id"');
    expect(text).not.toMatch(/DESIGN|\bspec \d|\bG\d+[a-z]\b|\(rule \d|\bissue \d|this stand/);
    const names = Object.keys(doc.components.schemas);
    for (const name of names) expect(text).toContain(`"#/components/schemas/${name}"`);
    expect(names.filter((n) => n.endsWith('Input') && names.includes(n.slice(0, -5)))).toEqual([]);
    // The login body is an object with its fields, not a string.
    const login = byId('login').requestBody.content['application/json'].schema;
    const body = doc.components.schemas[login.$ref.split('/').pop()];
    expect(Object.keys(body.properties)).toEqual(expect.arrayContaining(['email', 'password']));
  });

  it('answers every error with the one envelope type and lists its codes per status (x-error-codes)', () => {
    const r401 = byId('login').responses['401'];
    expect(r401.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
    expect(r401['x-error-codes']).toEqual(['unauthorized']);
    expect(byId('login').responses['403']['x-error-codes']).toEqual(
      expect.arrayContaining(['account_restricted', 'captcha_required']),
    );
    for (const { key, op } of ops) {
      for (const [status, res] of Object.entries(op.responses) as Array<[string, any]>) {
        const schema = res.content?.['application/json']?.schema;
        // A status answered with a body of the route's own (the health report's 503) is not an error envelope.
        if (Number(status) < 400 || !schema || (schema.$ref && !schema.$ref.endsWith('/ErrorEnvelope'))) continue;
        // One type for every error (generators make one class, not one per operation and status).
        expect(schema, `${key} ${status}`).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
        expect(res['x-error-codes'].length, `${key} ${status}`).toBeGreaterThan(0);
      }
    }
    // Every operation may answer 500 and 503; the health report's 503 is the report itself.
    for (const { key, op } of ops)
      expect(Object.keys(op.responses), key).toEqual(expect.arrayContaining(['500', '503']));
    expect(byId('getHealth').responses['503'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/HealthResponse',
    });
  });

  it('lists the codes each route declares, under the status of each', () => {
    const codes = (id: string, status: string) => byId(id).responses[status]['x-error-codes'];
    expect(codes('addFavorite', '404')).toEqual(['not_found']);
    expect(codes('putEmailPrefs', '400')).toEqual(['validation_error', 'email_pref_unknown']);
    // Codes no route of the read API answers with are not offered there.
    expect(codes('searchListings', '400')).toEqual(['validation_error']);
    expect(byId('getAvatar').responses['401']).toBeUndefined();
    expect(byId('getMapResource').responses['502']).toBeDefined();
  });

  it('declares the statuses of the conventions: 400 everywhere, 409 with Idempotency-Key, 413 and 415 with a body', () => {
    for (const { key, op } of ops) {
      // The input screen refuses a NUL in any query string, before any schema.
      expect(op.responses['400']?.['x-error-codes'], key).toContain('validation_error');
      const idempotent = op.parameters.some((p: any) => p.$ref === '#/components/parameters/IdempotencyKey');
      if (idempotent) expect(op.responses['409']?.['x-error-codes'], key).toContain('conflict');
      if (/^(POST|PUT|PATCH|DELETE) /.test(key)) {
        expect(op.responses['413']?.['x-error-codes'], key).toEqual(['payload_too_large']);
        expect(op.responses['415']?.['x-error-codes'], key).toEqual(['unsupported_media_type']);
      }
    }
    expect(byId('searchListings').responses['415']).toBeUndefined();
  });

  it('types parameters and bodies as the specification does', () => {
    const param = (id: string, name: string) => {
      const p = byId(id).parameters.find((x: any) =>
        x.$ref ? x.$ref.endsWith('/Lang') && name === 'lang' : x.name === name,
      );
      return p?.$ref ? doc.components.parameters[p.$ref.split('/').pop()] : p;
    };
    // `lang` wherever the language is negotiated: every operation.
    for (const id of ['searchListings', 'countListings', 'getConfig', 'listCurrencies', 'getFxRates', 'listLanguages'])
      expect(param(id, 'lang'), id).toMatchObject({ in: 'query', name: 'lang' });
    const categoryId = param('searchListings', 'category_id');
    expect(categoryId).toMatchObject({
      style: 'form',
      explode: true,
      schema: { type: 'array', items: { type: 'integer' } },
    });
    expect(param('listUpcomingEvents', 'crowd').schema).toMatchObject({
      type: 'array',
      items: { enum: ['intimate', 'small', 'medium', 'large'] },
    });
    expect(param('listUpcomingEvents', 'category').schema.type).toBe('array');
    expect(param('searchListings', 'date_from').schema.format).toBe('date');
    // The deletion request's body is optional (none, `null` or the captcha pair).
    expect(byId('requestAccountDeletion').requestBody.required).toBe(false);
    expect(byId('login').requestBody.required).toBe(true);
    // The captcha answer is a string, as the specification types it.
    expect(doc.components.schemas.LoginRequest.properties.captcha_answer).toMatchObject({
      type: 'string',
      default: '',
    });
    // Map and count take the feed's query string: its own parameters are declared there too.
    for (const id of ['searchMap', 'countListings'])
      for (const name of ['sort', 'limit', 'cursor']) expect(param(id, name), `${id} ${name}`).toBeDefined();
  });

  it('declares the headers of the conventions', () => {
    const names = (op: any) =>
      op.parameters.map((p: any) => (p.$ref ? doc.components.parameters[p.$ref.split('/').pop()].name : p.name));
    expect(names(byId('register'))).toEqual(expect.arrayContaining(['Idempotency-Key', 'Accept-Language']));
    expect(names(byId('registerDevice'))).toContain('Idempotency-Key');
    expect(names(byId('searchListings'))).not.toContain('Idempotency-Key');
    expect(names(byId('getTranslations'))).toContain('If-None-Match');
    const ok = byId('getTranslations').responses['200'].headers;
    expect(Object.keys(ok)).toEqual(expect.arrayContaining(['X-Request-Id', 'ETag']));
    const limited = byId('searchListings').responses['429'].headers;
    expect(Object.keys(limited)).toEqual(expect.arrayContaining(['Retry-After', 'X-Request-Id', 'RateLimit']));
    expect(Object.keys(byId('searchListings').responses['503'].headers)).toContain('Retry-After');
  });

  it('gives generators parameters they can use: the map path, booleans, cursors only on lists', () => {
    expect(doc.paths['/v1/map/{path}']).toBeDefined();
    const path = byId('getMapResource').parameters.find((p: any) => p.name === 'path');
    expect(path).toMatchObject({ in: 'path', required: true });
    expect(path.description).toMatch(/slashes/);
    const pets = byId('searchListings').parameters.find((p: any) => p.name === 'pets_allowed');
    expect(pets.schema.type).toBe('boolean');
    const has = (id: string, name: string) => byId(id).parameters.some((p: any) => p.name === name);
    expect(has('getEventCalendar', 'cursor')).toBe(false);
    expect(has('getEventMap', 'cursor')).toBe(false);
    expect(has('getEventFeed', 'cursor')).toBe(true);
    expect(has('searchListings', 'cursor')).toBe(true);
  });
});

describe('/docs', () => {
  it('works over plain HTTP: its CSP does not upgrade requests to HTTPS', async () => {
    const res = await fetch(`${t.url}/docs/static/index.html`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests');
  });
});
