import { describe, expect, it } from 'vitest';
import { breachedList, PASSWORD_MIN, PASSWORD_PROBLEM_MESSAGES, passwordProblem } from './password-rules.ts';
import { isAllowedToSignIn, parseAllowlist } from './allowlist.ts';

describe('password rules (DESIGN G5a, issue 32 point 7)', () => {
  it('counts characters, not bytes or UTF-16 units, for 10 to 128', () => {
    const varied = Array.from({ length: 128 }, (_, i) => String.fromCodePoint(0xe0 + ((i * 7) % 31))).join('');
    expect(passwordProblem('🙂🌴🐘🍍🚲🎒🌊🦀🍜', null)).toBe('too_short');
    expect(passwordProblem('🙂🌴🐘🍍🚲🎒🌊🦀🍜🛶', null)).toBeNull();
    expect(passwordProblem(varied, null)).toBeNull();
    expect(passwordProblem(`${varied}é`, null)).toBe('too_long');
  });

  it('has no composition rules: long passphrases of plain words pass', () => {
    for (const p of ['all lower case words', 'plum harbor lantern 57', 'correct horse battery staple', 'ahtnoeusnh']) {
      expect(passwordProblem(p, null), p).toBeNull();
    }
  });

  it("refuses the issue's weak passwords, each with its reason", () => {
    const cases: Array<[string, string]> = [
      ['aaaaaaaaaa', 'common'],
      ['0000000000', 'common'],
      ['abcdefghij', 'common'],
      ['P@ssw0rd123', 'common_word'],
      ['Password1!', 'common'],
      ['Welcome2024', 'common_word'],
      ['Summer2026!', 'common_word'],
    ];
    for (const [password, reason] of cases)
      expect([password, passwordProblem(password, null)]).toEqual([password, reason]);
  });

  it('names what makes a password guessable: repeats, sequences, keyboard patterns, dates, words', () => {
    const cases: Array<[string, string]> = [
      ['kkkkkkkkkkkk', 'repeated'],
      ['abcabcabcabc', 'repeated'],
      ['ghijklmnopq', 'sequence'],
      ['zxcvbnm,./', 'keyboard_pattern'],
      ['xcvbnm,.lkjh', 'keyboard_pattern'],
      ['2024-12-25!!', 'date'],
      ['12/25/2024xy', 'date'],
      ['Summer2026!', 'common_word'],
    ];
    for (const [password, reason] of cases)
      expect([password, passwordProblem(password, null)]).toEqual([password, reason]);
  });

  it('refuses common breached passwords in any letter case, from a bundled list of at least 100,000', () => {
    const list = breachedList(PASSWORD_MIN);
    expect(list.total).toBeGreaterThanOrEqual(999_999);
    expect(list.kept.size).toBeGreaterThanOrEqual(100_000);
    expect(passwordProblem('1234567890', null)).toBe('common');
    expect(passwordProblem('QwErTyUiOp', null)).toBe('common');
    expect(passwordProblem('iloveyou12', null)).toBe('common');
  });

  it('refuses the email, its local part, and a password made mostly of the name or email', () => {
    expect(passwordProblem('Anna.Lee.1990@example.com', 'anna.lee.1990@example.com')).toBe('equals_email');
    expect(passwordProblem('anna.lee.1990', 'anna.lee.1990@example.com')).toBe('equals_email');
    expect(passwordProblem('anna.lee.1990!', 'anna.lee@example.com', ['Anna', 'Lee'])).toBe('personal_info');
    expect(passwordProblem('AnnaLee2026!', 'a.lee@example.com', ['Anna', 'Lee'])).toBe('personal_info');
    expect(passwordProblem('plum harbor lantern 57', 'anna.lee@example.com', ['Anna', 'Lee'])).toBeNull();
  });

  it('has a message for every reason', () => {
    for (const [reason, message] of Object.entries(PASSWORD_PROBLEM_MESSAGES)) {
      expect(message.length, reason).toBeGreaterThan(20);
    }
  });
});

describe('sign-in allow-list (spec 5.9)', () => {
  it('allows everyone when empty', () => {
    expect(isAllowedToSignIn(parseAllowlist(' , '), 'a@b.c')).toBe(true);
  });

  it('matches full emails exactly and domains without their subdomains', () => {
    const list = parseAllowlist('QA@Stand.example, @team.example, partner.example');
    expect(isAllowedToSignIn(list, 'qa@stand.example')).toBe(true);
    expect(isAllowedToSignIn(list, 'other@stand.example')).toBe(false);
    expect(isAllowedToSignIn(list, 'x@TEAM.example')).toBe(true);
    expect(isAllowedToSignIn(list, 'x@partner.example')).toBe(true);
    expect(isAllowedToSignIn(list, 'x@sub.partner.example')).toBe(false);
    expect(isAllowedToSignIn(list, 'x@evilpartner.example')).toBe(false);
  });
});
