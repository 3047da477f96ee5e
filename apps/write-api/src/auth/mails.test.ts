import { expect, it } from 'vitest';
import { confirmEmailMail, linkBase } from './mails.ts';

const base = { APP_LINK_BASE_URL: undefined, PUBLIC_BASE_URL: undefined, HOST: '0.0.0.0', PORT: 8680 };

it('links to the web client: APP_LINK_BASE_URL, else PUBLIC_BASE_URL, else the listening address', () => {
  expect(linkBase(base)).toBe('http://127.0.0.1:8680/');
  expect(linkBase({ ...base, HOST: '::' })).toBe('http://[::1]:8680/');
  expect(linkBase({ ...base, PUBLIC_BASE_URL: 'https://guest.example' })).toBe('https://guest.example/');
  expect(
    linkBase({ ...base, PUBLIC_BASE_URL: 'https://guest.example', APP_LINK_BASE_URL: 'https://app.example/web/' }),
  ).toBe('https://app.example/web/');
});

it('the confirmation link lands on the page that confirms through the API', () => {
  const mail = confirmEmailMail(
    { ...base, PUBLIC_BASE_URL: 'https://guest.example', EMAIL_CONFIRM_TTL_H: 48 },
    'Ana',
    'tok-1',
  );
  expect(mail.text).toContain('https://guest.example/account/confirm-email?token=tok-1');
});
