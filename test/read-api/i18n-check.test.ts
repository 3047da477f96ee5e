import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '@guest/config';
import { ERROR_CODES } from '@guest/http-kit';
import { inspectDictionaries } from '@guest/read-api/i18n';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const EN = { 'nav.home': 'Home', 'nav.map': 'Map', 'search.show_results': 'Show results: {count}' };

async function dictionaries(files: Record<string, unknown>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'guest-i18n-check-'));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) {
    await writeFile(path.join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return dir;
}

describe('i18n check (the function behind npm run check:i18n)', () => {
  it('passes the committed dictionaries: at least 80 keys, every language partly translated', () => {
    const r = inspectDictionaries(path.join(repoRoot, 'i18n'));
    expect(r.problems).toEqual([]);
    expect(Object.keys(r.dictionaries.en ?? {}).length).toBeGreaterThanOrEqual(80);
    expect(r.coverage.map((c) => c.lang)).toEqual(['ru', 'th', 'zh-Hans']);
    for (const c of r.coverage) expect(c.percent).toBeGreaterThan(50);
  });

  it('has an English message for every error code of the envelope, under errors.<code>', () => {
    const en = inspectDictionaries(path.join(repoRoot, 'i18n')).dictionaries.en ?? {};
    const lacking = Object.keys(ERROR_CODES).filter((code) => en[`errors.${code}`] === undefined);
    expect(lacking, 'error codes without an interface message').toEqual([]);
  });

  it('reports coverage per language with the missing keys', async () => {
    const dir = await dictionaries({ 'en.json': EN, 'ru.json': { 'nav.home': 'Главная' } });
    const r = inspectDictionaries(dir);
    expect(r.problems).toEqual([]);
    expect(r.coverage.find((c) => c.lang === 'ru')).toEqual({
      lang: 'ru',
      translated: 1,
      total: 3,
      percent: 33.3,
      missing: ['nav.map', 'search.show_results'],
    });
    expect(r.coverage.find((c) => c.lang === 'th')?.percent).toBe(0); // no th.json: all served in English
  });

  it('fails when a non-English file has keys English lacks', async () => {
    const dir = await dictionaries({ 'en.json': EN, 'th.json': { 'nav.home': 'หน้าแรก', 'nav.extra': 'x' } });
    expect(inspectDictionaries(dir).problems).toEqual(['th.json: "nav.extra" is not in en.json']);
  });

  it('fails on values that are not strings, in any file', async () => {
    const dir = await dictionaries({
      'en.json': { ...EN, 'nav.count': 3 },
      'ru.json': { 'nav.home': { text: 'Главная' }, 'nav.map': null },
    });
    expect(inspectDictionaries(dir).problems).toEqual([
      'en.json: "nav.count" is a number, not a string',
      'ru.json: "nav.home" is an object, not a string',
      'ru.json: "nav.map" is null, not a string',
    ]);
  });

  it('fails on invalid JSON and on a file that is not one object', async () => {
    const dir = await dictionaries({ 'en.json': EN, 'ru.json': '{"nav.home": "Главная",', 'th.json': '["a"]' });
    const problems = inspectDictionaries(dir).problems;
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^ru\.json: invalid JSON: /);
    expect(problems[1]).toBe('th.json: must be one JSON object of "key": "text" pairs, found an array');
  });

  it('fails on a translation whose placeholders differ from English, on empty texts, bad key names and unknown languages', async () => {
    const dir = await dictionaries({
      'en.json': EN,
      'ru.json': { 'search.show_results': 'Показать: {число}', 'nav.map': ' ' },
      'zh-Hans.json': { Nav: '导航' },
      'fr.json': { 'nav.home': 'Accueil' },
    });
    expect(inspectDictionaries(dir).problems).toEqual([
      'fr.json: "fr" is not an interface language (en, ru, th, zh-Hans)',
      'ru.json: "nav.map" is empty; leave the key out so that English is served',
      'zh-Hans.json: key "Nav" is not a dotted name of lowercase words (like "search.filters.price")',
      'ru.json: "search.show_results" has placeholders {} but en.json has {count}',
      'zh-Hans.json: "Nav" is not in en.json',
    ]);
  });

  it('fails when en.json is missing', async () => {
    const dir = await dictionaries({ 'ru.json': { 'nav.home': 'Главная' } });
    expect(inspectDictionaries(dir).problems).toEqual(['en.json: missing']);
  });
});

describe('npm run check:i18n', () => {
  const run = (dir?: string) =>
    spawnSync('npx', ['tsx', 'scripts/check-i18n.ts', ...(dir ? [dir] : [])], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 60_000,
    });

  it('prints the coverage of each language and exits 0 on the committed dictionaries', () => {
    const r = run();
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/ru\s+\d+(\.\d)?%/);
    expect(r.stdout).toMatch(/th\s+\d+(\.\d)?%/);
    expect(r.stdout).toMatch(/zh-Hans\s+\d+(\.\d)?%/);
  });

  it('exits 1 and lists the problems on a broken directory', async () => {
    const dir = await dictionaries({ 'en.json': EN, 'ru.json': { 'nav.extra': 'x', 'nav.home': 1 } });
    const r = run(dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('ru.json: "nav.extra" is not in en.json');
    expect(r.stderr).toContain('ru.json: "nav.home" is a number, not a string');
  });
});
