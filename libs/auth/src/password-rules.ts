// The password rules, apart from hashing: pure and free of native modules, so that a worker thread
// of the write API can run them (apps/write-api/src/work): zxcvbn takes up to a few hundred ms on a
// long password, which must not hold the event loop.
import { ZxcvbnFactory, type MatchExtended } from '@zxcvbn-ts/core';
import common from '@zxcvbn-ts/language-common';
import english from '@zxcvbn-ts/language-en';
import { breachedList } from './breached.ts';

export { breachedList };

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 128;
/**
 * The zxcvbn score a password needs (0 to 4): 3 is "safely unguessable", at least 10^8 guesses,
 * what an attacker with the stolen hashes (argon2id) could not try in a useful time.
 */
export const PASSWORD_MIN_SCORE = 3;

export type PasswordProblem =
  | 'too_short'
  | 'too_long'
  | 'blank'
  | 'common'
  | 'equals_email'
  | 'personal_info'
  | 'repeated'
  | 'sequence'
  | 'keyboard_pattern'
  | 'date'
  | 'common_word'
  | 'too_guessable';

export const PASSWORD_PROBLEM_MESSAGES: Record<PasswordProblem, string> = {
  too_short: `The password must have at least ${PASSWORD_MIN} characters.`,
  too_long: `The password must have at most ${PASSWORD_MAX} characters.`,
  blank: 'The password must not be only spaces or other white space.',
  common: 'This password is among the most common ones found in breaches; choose another one.',
  equals_email: 'The password must not be your email address.',
  personal_info: 'The password is mostly your name or email address; choose something else.',
  repeated: 'The password is mostly repeated characters or a repeated group (like "aaaa" or "abcabc").',
  sequence: 'The password is mostly a sequence (like "abcdef" or "123456").',
  keyboard_pattern: 'The password is mostly a keyboard pattern (like "qwerty" or "zxcvbn").',
  date: 'The password is mostly a date or a year, which are easy to guess.',
  common_word:
    'The password is mostly common words or names, perhaps with letters swapped for look-alikes (like "P@ssw0rd"); add more words of your own.',
  too_guessable: 'The password is too easy to guess; make it longer, for example several unrelated words.',
};

const zxcvbn = new ZxcvbnFactory({
  // Every look-alike substitution tried multiplies the work: 12 find "P@ssw0rd"-like words and
  // keep a 128-character password under a few hundred ms (100 by default: seconds).
  l33tMaxSubstitutions: 12,
  translations: english.translations,
  graphs: common.adjacencyGraphs,
  dictionary: { ...common.dictionary, ...english.dictionary },
});

/** What makes a password guessable, named from the zxcvbn match that covers most of it. */
function weakestPart(sequence: MatchExtended[]): PasswordProblem {
  let best: MatchExtended | null = null;
  for (const m of sequence) {
    if (m.pattern === 'bruteforce' || m.pattern === 'separator') continue;
    if (!best || m.token.length > best.token.length) best = m;
  }
  switch (best?.pattern) {
    case 'repeat':
      return 'repeated';
    case 'sequence':
      return 'sequence';
    case 'spatial':
      return 'keyboard_pattern';
    case 'date':
    case 'regex':
      return 'date';
    case 'dictionary':
    case 'wordSequence':
      return best.dictionaryName === 'userInputs' ? 'personal_info' : 'common_word';
    default:
      return 'too_guessable';
  }
}

/**
 * DESIGN G5a (NIST 800-63B) and issue 32 point 7: 10 to 128 characters and no composition rules;
 * not only white space (ten spaces have the length and no secret); not among the most common
 * breached passwords (`breachedList`, checked here without any network call); not the email;
 * and at least PASSWORD_MIN_SCORE by zxcvbn (English and common dictionaries, keyboard layouts,
 * the person's own email and names as words), which refuses repeats, sequences, keyboard
 * patterns, dates and common words with look-alike substitutions. Each refusal names its reason.
 */
export function passwordProblem(
  password: string,
  email: string | null,
  personal: Array<string | null | undefined> = [],
): PasswordProblem | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN) return 'too_short';
  if (length > PASSWORD_MAX) return 'too_long';
  if (/^[\s\p{White_Space}\p{Cf}]*$/u.test(password)) return 'blank';
  const lower = password.trim().toLowerCase();
  if (breachedList(PASSWORD_MIN).kept.has(lower)) return 'common';
  const inputs: string[] = [];
  if (email) {
    const e = email.toLowerCase();
    const local = e.split('@')[0]!;
    if (lower === e || lower === local) return 'equals_email';
    inputs.push(e, local, ...local.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 3));
  }
  const names = personal.map((p) => p?.trim().toLowerCase() ?? '').filter((p) => p.length >= 2);
  inputs.push(...names.filter((n) => n.length >= 3));
  if (names.length > 1) inputs.push(names.join(''), names.join('.'), names.join(' '));
  const result = zxcvbn.check(password, inputs);
  // Mostly the person's own name or email (with a year or a sign added): guessed first by anyone
  // who knows whose account it is, whatever zxcvbn's count says.
  const own = result.sequence
    .filter((m) => m.pattern === 'dictionary' && m.dictionaryName === 'userInputs')
    .reduce((n, m) => n + m.token.length, 0);
  if (own * 2 >= password.length) return 'personal_info';
  if (result.score < PASSWORD_MIN_SCORE) return weakestPart(result.sequence);
  return null;
}
