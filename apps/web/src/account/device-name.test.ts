import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deviceName, deviceOf } from './device-name.ts';

const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/139.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const EDGE_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0';
const FIREFOX_UBUNTU = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';

/** The dictionary's `t` of a language, as the page fills placeholders. */
function tOf(lang: string) {
  const strings = JSON.parse(
    readFileSync(path.join(import.meta.dirname, '../../../../i18n', `${lang}.json`), 'utf8'),
  ) as Record<string, string>;
  return (key: string, params: Record<string, string> = {}) =>
    (strings[key] ?? key).replace(/\{(\w+)\}/g, (m, n: string) => params[n] ?? m);
}

describe('a session named by its browser and system', () => {
  it.each([
    [CHROME_LINUX, 'Chrome', 'Linux'],
    [SAFARI_IPHONE, 'Safari', 'iOS'],
    [EDGE_WINDOWS, 'Microsoft Edge', 'Windows'],
    [FIREFOX_UBUNTU, 'Firefox', 'Linux'],
    [SAFARI_MAC, 'Safari', 'macOS'],
  ])('%s', (ua, browser, os) => {
    expect(deviceOf(ua)).toEqual({ browser, os });
  });

  it('says it in every interface language', () => {
    expect(deviceName(CHROME_LINUX, tOf('en'))).toBe('Chrome on Linux');
    expect(deviceName(CHROME_LINUX, tOf('ru'))).toBe('Chrome на Linux');
    expect(deviceName(CHROME_LINUX, tOf('th'))).toBe('Chrome บน Linux');
    expect(deviceName(CHROME_LINUX, tOf('zh-Hans'))).toBe('Linux 上的 Chrome');
  });

  it('names what it can: a browser or system alone, else an unknown device (never the raw string)', () => {
    const t = tOf('en');
    expect(deviceName('GuestApp/1.0 (iOS 17)', t)).toBe('GuestApp');
    expect(deviceName('curl/8.5.0', t)).toBe('Unknown device');
    expect(deviceName(null, t)).toBe('Unknown device');
    expect(deviceName('', tOf('ru'))).toBe('Неизвестное устройство');
  });
});
