import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/test-app.ts';
import { http } from '../../support/http.ts';
import { startProfileApp } from './support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startProfileApp();
});
afterAll(async () => t?.close());

describe('OpenAPI of the profile, files and badges routes', () => {
  it('documents every route with the named shapes of the spec', async () => {
    const res = await http(t.url, 'GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    const paths = res.body.paths as Record<string, Record<string, unknown>>;
    const expected: Array<[string, string[]]> = [
      ['/v1/me', ['get', 'patch']],
      ['/v1/me/badges', ['get']],
      ['/v1/me/avatar', ['put', 'delete']],
      ['/v1/me/search-filters', ['get', 'put']],
      ['/v1/me/email-prefs', ['get', 'put']],
      ['/v1/me/push-prefs', ['get', 'put']],
      ['/v1/me/favorites', ['get']],
      ['/v1/me/favorites/{listing_id}', ['put', 'delete']],
      ['/v1/me/transactions', ['get']],
      ['/v1/me/transactions/{tx_id}', ['get']],
      ['/v1/media/{media_id}', ['get']],
      ['/v1/media/{media_id}/ticket', ['post']],
      ['/v1/devices', ['post']],
      ['/v1/notifications/read', ['post']],
      ['/v1/chats/dialogs/{id}/read', ['post']],
      ['/v1/assistant/read', ['post']],
    ];
    for (const [path, methods] of expected) {
      expect(Object.keys(paths[path] ?? {}), path).toEqual(expect.arrayContaining(methods));
    }
    const schemas = Object.keys(res.body.components.schemas);
    expect(schemas).toEqual(
      expect.arrayContaining([
        'ProfileResponse',
        'ProfileUpdateRequest',
        'OwnRestriction',
        'BadgesResponse',
        'AvatarResponse',
        'SearchFiltersResponse',
        'SearchFiltersRequest',
        'EmailPrefsBody',
        'EmailPrefsUpdate',
        'EmailPrefGroup',
        'PushPrefsBody',
        'PushPrefsUpdate',
        'PushPrefGroup',
        'MediaTicketResponse',
        'TransactionResponse',
        'TransactionsPage',
      ]),
    );
    const profile = res.body.components.schemas.ProfileResponse;
    expect(Object.keys(profile.properties)).toHaveLength(27);
    const avatarPut = (paths['/v1/me/avatar'] as any).put;
    expect(JSON.stringify(avatarPut.requestBody ?? {})).toContain('multipart/form-data');
  });
});
