import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '@guest/config';
import { readApi } from '@guest/read-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { expectEnvelope, http } from '../support/http.ts';

const dictDir = path.join(repoRoot, 'i18n');
const readDict = async (lang: string): Promise<Record<string, string>> =>
  JSON.parse(await readFile(path.join(dictDir, `${lang}.json`), 'utf8'));

let t: TestApp;
let en: Record<string, string>;
let th: Record<string, string>;
const tmpDirs: string[] = [];

beforeAll(async () => {
  t = await startTestApp({ apps: [readApi] });
  en = await readDict('en');
  th = await readDict('th');
});
afterAll(async () => {
  await t?.close();
  for (const d of tmpDirs) await rm(d, { recursive: true, force: true });
});

async function copyOfDictionaries(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'guest-i18n-'));
  tmpDirs.push(dir);
  await cp(dictDir, dir, { recursive: true });
  return dir;
}

describe('GET /v1/i18n: the full dictionary of the request language', () => {
  it('serves every English key, translated where the language has it and in English where it lacks it', async () => {
    const full = await http(t.url, 'GET', '/v1/i18n?lang=th');
    expect(full.status).toBe(200);
    expect(full.body.lang).toBe('th');
    expect(Object.keys(full.body.strings)).toEqual(Object.keys(en));
    expect(full.body.missing).toEqual(Object.keys(en).filter((k) => th[k] === undefined));

    // The committed dictionaries are complete: a copy whose Thai file lacks two keys.
    const dir = await copyOfDictionaries();
    const lacking = ['nav.map', 'errors.unavailable'];
    const partial = { ...th };
    for (const k of lacking) delete partial[k];
    await writeFile(path.join(dir, 'th.json'), JSON.stringify(partial, null, 2));
    const app = await startTestApp({ apps: [readApi], config: { I18N_DIR: dir } });
    try {
      const res = await http(app.url, 'GET', '/v1/i18n?lang=th');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.strings)).toEqual(Object.keys(en));
      expect(res.body.missing).toEqual(Object.keys(en).filter((k) => lacking.includes(k)));
      for (const k of lacking) expect(res.body.strings[k]).toBe(en[k]);
      expect(res.body.strings['nav.search']).toBe(th['nav.search']);
      expect(res.body.strings['nav.search']).not.toBe(en['nav.search']);
    } finally {
      await app.close();
    }
  });

  it('takes the language from Accept-Language when there is no lang, and lang wins over the header', async () => {
    const byHeader = await http(t.url, 'GET', '/v1/i18n', {
      headers: { 'accept-language': 'ru-RU,ru;q=0.9,en;q=0.5' },
    });
    expect(byHeader.body.lang).toBe('ru');
    expect(byHeader.body.strings['nav.map']).toBe('Карта');
    expect(byHeader.headers.get('content-language')).toBe('ru');
    const both = await http(t.url, 'GET', '/v1/i18n?lang=zh-Hans', { headers: { 'accept-language': 'ru' } });
    expect(both.body.lang).toBe('zh-Hans');
    expect(both.body.strings['nav.map']).toBe('地图');
  });

  it('maps zh and zh-CN to Simplified Chinese', async () => {
    expect((await http(t.url, 'GET', '/v1/i18n?lang=zh-CN')).body.lang).toBe('zh-Hans');
    expect((await http(t.url, 'GET', '/v1/i18n', { headers: { 'accept-language': 'zh' } })).body.lang).toBe('zh-Hans');
  });

  it('gives English for an unknown language, with nothing missing', async () => {
    for (const res of [
      await http(t.url, 'GET', '/v1/i18n?lang=fr'),
      await http(t.url, 'GET', '/v1/i18n', { headers: { 'accept-language': 'de-DE, fr;q=0.8' } }),
      await http(t.url, 'GET', '/v1/i18n'),
    ]) {
      expect(res.status).toBe(200);
      expect(res.body.lang).toBe('en');
      expect(res.body.strings).toEqual(en);
      expect(res.body.missing).toEqual([]);
    }
  });

  it('answers 304 with no body when version is the current one, 200 for another version', async () => {
    const first = await http(t.url, 'GET', '/v1/i18n?lang=ru');
    const version = first.body.version as string;
    expect(version).toMatch(/^[0-9a-f]{16}$/);
    const same = await http(t.url, 'GET', `/v1/i18n?lang=ru&version=${version}`);
    expect(same.status).toBe(304);
    expect(same.text).toBe('');
    // No header describes a body a 304 has not got (RFC 9110 section 15.4.5; Prism answered 500 on it).
    expect(same.headers.get('content-length')).toBeNull();
    expect(same.headers.get('content-type')).toBeNull();
    expect(same.headers.get('etag')).toBe(first.headers.get('etag'));
    const stale = await http(t.url, 'GET', '/v1/i18n?lang=ru&version=0000000000000000');
    expect(stale.status).toBe(200);
    expect(stale.body).toEqual(first.body);
  });

  it('the version is per language: another language with the Russian version is 200 with its dictionary', async () => {
    const ru = (await http(t.url, 'GET', '/v1/i18n?lang=ru')).body.version as string;
    for (const lang of ['en', 'th', 'zh-Hans']) {
      const other = await http(t.url, 'GET', `/v1/i18n?lang=${lang}&version=${ru}`);
      expect(other.status, lang).toBe(200);
      expect(other.body.lang).toBe(lang);
      expect(other.body.version).not.toBe(ru);
    }
  });

  it('answers 304 to If-None-Match with the ETag of the same language, 200 with another language ETag', async () => {
    const ru = await http(t.url, 'GET', '/v1/i18n?lang=ru');
    // fetch takes Brotli: the coded answer carries the weak form of the tag (W/"…").
    const etag = ru.headers.get('etag')!.replace(/^W\//, '');
    expect(ru.headers.get('cache-control')).toBe(`public, max-age=${t.config.I18N_CACHE_MAX_AGE_S}`);
    expect(ru.headers.get('vary')).toContain('Accept-Language');
    const again = await http(t.url, 'GET', '/v1/i18n?lang=ru', { headers: { 'if-none-match': `"x", W/${etag}` } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const otherLang = await http(t.url, 'GET', '/v1/i18n?lang=th', { headers: { 'if-none-match': etag } });
    expect(otherLang.status).toBe(200);
    expect(otherLang.body.lang).toBe('th');
  });

  it('treats an empty lang or version as absent', async () => {
    const res = await http(t.url, 'GET', '/v1/i18n?lang=&version=', { headers: { 'accept-language': 'th' } });
    expect(res.status).toBe(200);
    expect(res.body.lang).toBe('th');
  });

  it('rejects a malformed lang or version with 400 validation_error naming the field', async () => {
    const badLang = await http(t.url, 'GET', '/v1/i18n?lang=%3Cscript%3E');
    expect(expectEnvelope(badLang, 400, 'validation_error').details.field).toBe('lang');
    const badVersion = await http(t.url, 'GET', `/v1/i18n?version=${'a'.repeat(65)}`);
    expect(expectEnvelope(badVersion, 400, 'validation_error').details.field).toBe('version');
    const twice = await http(t.url, 'GET', '/v1/i18n?version=a&version=b');
    expect(expectEnvelope(twice, 400, 'validation_error').details.field).toBe('version');
  });
});

describe('dictionary version: a content hash computed at start', () => {
  it('stays the same for the same strings (even reformatted) and changes when any one string changes', async () => {
    const current = (await http(t.url, 'GET', '/v1/i18n')).body.version;

    const reformatted = await copyOfDictionaries();
    const ruCopy = JSON.parse(await readFile(path.join(reformatted, 'ru.json'), 'utf8'));
    await writeFile(path.join(reformatted, 'ru.json'), JSON.stringify(ruCopy)); // one line, same content
    const edited = await copyOfDictionaries();
    await writeFile(path.join(edited, 'th.json'), JSON.stringify({ ...th, 'nav.map': 'แผนที่ (ใหม่)' }, null, 2));

    const a = await startTestApp({ apps: [readApi], config: { I18N_DIR: reformatted } });
    const b = await startTestApp({ apps: [readApi], config: { I18N_DIR: edited } });
    try {
      expect((await http(a.url, 'GET', '/v1/i18n')).body.version).toBe(current);
      const currentTh = (await http(t.url, 'GET', '/v1/i18n?lang=th')).body.version;
      const changed = await http(b.url, 'GET', '/v1/i18n?lang=th');
      expect(changed.body.version).not.toBe(currentTh);
      // Per language: a Thai string does not change the English version.
      expect((await http(b.url, 'GET', '/v1/i18n?lang=en')).body.version).toBe(current);
      // A client holding the old version gets the new dictionary, not 304.
      expect((await http(b.url, 'GET', `/v1/i18n?lang=th&version=${currentTh}`)).body.strings['nav.map']).toBe(
        'แผนที่ (ใหม่)',
      );
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('refuses to start on a dictionary that fails the check, naming the file and key', async () => {
    const broken = await copyOfDictionaries();
    await writeFile(path.join(broken, 'ru.json'), JSON.stringify({ 'nav.map': 'Карта', 'nav.unknown_key': 'x' }));
    await expect(startTestApp({ apps: [readApi], config: { I18N_DIR: broken } })).rejects.toThrow(
      /ru\.json: "nav\.unknown_key" is not in en\.json/,
    );
  });
});

describe('GET /v1/i18n/languages', () => {
  it('names each language in its own language, English first as the default, with no flags', async () => {
    const res = await http(t.url, 'GET', '/v1/i18n/languages');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      default: 'en',
      languages: [
        { code: 'en', name: 'English', name_en: 'English' },
        { code: 'ru', name: 'Русский', name_en: 'Russian' },
        { code: 'th', name: 'ไทย', name_en: 'Thai' },
        { code: 'zh-Hans', name: '简体中文', name_en: 'Chinese (Simplified)' },
      ],
    });
    expect(res.text).not.toMatch(/[\u{1F1E6}-\u{1F1FF}]/u); // regional-indicator (flag) symbols
    expect(res.headers.get('cache-control')).toBe(`public, max-age=${t.config.REFERENCE_CACHE_MAX_AGE_S}`);
  });

  it('is the same whatever the request language', async () => {
    const th = await http(t.url, 'GET', '/v1/i18n/languages?lang=th');
    const en = await http(t.url, 'GET', '/v1/i18n/languages');
    expect(th.body).toEqual(en.body);
  });
});

describe('OpenAPI', () => {
  it('documents both localization endpoints with their named shapes and the 304', async () => {
    const doc = (await http(t.url, 'GET', '/v1/openapi.json')).body;
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['I18nResponse', 'LanguagesResponse', 'LanguageInfo']),
    );
    expect(Object.keys(doc.paths['/v1/i18n'].get.responses)).toEqual(expect.arrayContaining(['200', '304', '400']));
    expect(doc.paths['/v1/i18n/languages'].get.responses['200']).toBeDefined();
  });
});
