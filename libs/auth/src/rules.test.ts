import { describe, expect, it } from 'vitest';
import { passwordProblem } from './password.ts';
import { isAllowedToSignIn, parseAllowlist } from './allowlist.ts';

describe('password rules (DESIGN G5a)', () => {
  it('counts characters, not bytes or UTF-16 units, for 10 to 128', () => {
    expect(passwordProblem('🙂'.repeat(9), null)).toBe('too_short');
    expect(passwordProblem('🙂'.repeat(10), null)).toBeNull();
    expect(passwordProblem('é'.repeat(128), null)).toBeNull();
    expect(passwordProblem('é'.repeat(129), null)).toBe('too_long');
  });

  it('has no composition rules but refuses common passwords in any letter case', () => {
    expect(passwordProblem('all lower case words', null)).toBeNull();
    expect(passwordProblem('1234567890', null)).toBe('common');
    expect(passwordProblem('QwErTyUiOp', null)).toBe('common');
  });

  it('refuses the email and its local part', () => {
    expect(passwordProblem('Anna.Lee.1990@example.com', 'anna.lee.1990@example.com')).toBe('equals_email');
    expect(passwordProblem('anna.lee.1990', 'anna.lee.1990@example.com')).toBe('equals_email');
    expect(passwordProblem('anna.lee.1990!', 'anna.lee.1990@example.com')).toBeNull();
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
