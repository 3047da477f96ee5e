import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeApi } from '@guest/write-api';
import { readApi } from '@guest/read-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { http } from '../support/http.ts';
import { confirmEmail, register, relaxedLimits } from '../write-api/auth/support.ts';

// Issue 14 point 6: a restricted account is turned away at once on every signed-in route, so the
// document must say so on each: a client generated from it has to handle 403 `account_restricted`
// there. This walks the served document and holds it against what the server does with a
// login-restricted account's token, both ways: every operation that answers it documents it, and
// every operation that documents it answers it (the few open to a restricted account, those that
// list or end its sessions, neither answer nor document it).

type Json = Record<string, any>;
let t: TestApp;
let doc: Json;
let token: string;

beforeAll(async () => {
  t = await startTestApp({ apps: [writeApi, readApi], config: relaxedLimits });
  doc = (await http(t.url, 'GET', '/v1/openapi.json')).body;
  const u = await register(t);
  await confirmEmail(t, u.email);
  token = u.tokens.access_token;
  await t.sql.query(`insert into account_restrictions (account_id, kind) values ($1, 'login')`, [u.accountId]);
});
afterAll(async () => t?.close());

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function operations(): Array<{ method: string; path: string; op: Json }> {
  return Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ method, path, op: item[method] as Json })),
  );
}

/** The codes the document lists for the operation's 403 (`x-error-codes` beside the one envelope). */
function codes403(op: Json): string[] {
  return op.responses?.['403']?.['x-error-codes'] ?? [];
}

const signedIn = (op: Json) => (op.security as Json[] | undefined)?.some((s) => 'bearer' in s) ?? false;

/** A concrete URL for a templated path: the guard runs before the parameters are validated. */
const concrete = (path: string) =>
  path.replace(/\{([^}]+)\}/g, (_, name: string) => (/id$/.test(name) ? '00000000-0000-4000-8000-000000000000' : 'x'));

describe('403 account_restricted in the OpenAPI document', () => {
  it('is documented on exactly the operations that answer it to a restricted account', async () => {
    const checked: string[] = [];
    const open: string[] = [];
    // Signing out last: it ends the session the other calls use.
    const ordered = operations().sort((a, b) => Number(/logout/.test(a.path)) - Number(/logout/.test(b.path)));
    for (const { method, path, op } of ordered) {
      const documented = codes403(op).includes('account_restricted');
      // Only operations that take a token: login and refresh answer account_restricted for the
      // account their credentials name (test/write-api/auth/restrictions-at-once.test.ts).
      if (!signedIn(op)) continue;
      const res = await http(t.url, method.toUpperCase(), concrete(path), {
        token,
        ...(method === 'get' || method === 'delete' ? {} : { body: {} }),
      });
      const answered = res.status === 403 && res.body?.error?.code === 'account_restricted';
      const label = `${method.toUpperCase()} ${path}`;
      expect(answered, `${label}: answered ${res.status} ${res.body?.error?.code}, documented ${documented}`).toBe(
        documented,
      );
      (documented ? checked : open).push(label);
    }
    // Every signed-in operation but those that list or end sessions.
    expect(checked.length).toBeGreaterThan(25);
    expect(open.sort()).toEqual([
      'DELETE /v1/me/sessions/{session_id}',
      'GET /v1/auth/sessions',
      'GET /v1/me/sessions',
      'POST /v1/auth/logout',
      'POST /v1/auth/logout-all',
    ]);
  });

  it('is listed with the other 403 codes an operation names, not instead of them', () => {
    const search = doc.paths['/v1/me/search-filters'].put;
    expect(codes403(search)).toEqual(['email_not_confirmed', 'account_restricted']);
    expect(codes403(doc.paths['/v1/auth/delete-request'].post)).toEqual(['captcha_required', 'account_restricted']);
  });
});
