import Bowser from 'bowser';

/** A session's user agent read as browser and system names (bowser); null where it names none. */
export interface Device {
  browser: string | null;
  os: string | null;
}

export function deviceOf(userAgent: string | null | undefined): Device {
  if (!userAgent) return { browser: null, os: null };
  const parsed = Bowser.parse(userAgent);
  return { browser: parsed.browser.name || null, os: parsed.os.name || null };
}

/**
 * The words for a session's device in the interface language: "Chrome on Linux", or the browser
 * or the system alone, or "unknown device". `t` is the dictionary's.
 */
export function deviceName(
  userAgent: string | null | undefined,
  t: (key: string, params?: Record<string, string>) => string,
): string {
  const { browser, os } = deviceOf(userAgent);
  if (browser && os) return t('account.sessions.device', { browser, os });
  return browser ?? os ?? t('account.sessions.unknown_device');
}
