import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { developmentSecrets, givenSecretProblems, isLoopbackHost, SECRET_NAMES } from './secrets.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('development secrets (issue 14 point 7)', () => {
  it('are random per checkout, distinct per purpose, made once and then read back', () => {
    const one = developmentSecrets(path.join(dir, 'one', 'secrets.env'));
    const two = developmentSecrets(path.join(dir, 'two', 'secrets.env'));
    expect(new Set(Object.values(one)).size).toBe(SECRET_NAMES.length);
    for (const n of SECRET_NAMES) expect(one[n]).not.toBe(two[n]);
    expect(developmentSecrets(path.join(dir, 'one', 'secrets.env'))).toEqual(one);
    expect(statSync(path.join(dir, 'one', 'secrets.env')).mode & 0o077).toBe(0);
  });

  it('adds a secret the file lacks without changing the others', () => {
    const file = path.join(dir, 'three.env');
    const kept = SECRET_NAMES.filter((n) => n !== 'CURSOR_SECRET');
    writeFileSync(file, kept.map((n) => `${n}=${n.toLowerCase()}-kept-value-0123456789abcdef`).join('\n') + '\n');
    const got = developmentSecrets(file);
    for (const n of kept) expect(got[n]).toBe(`${n.toLowerCase()}-kept-value-0123456789abcdef`);
    expect(got.CURSOR_SECRET).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(developmentSecrets(file)).toEqual(got);
  });

  it('are demanded from the environment only on a loopback host outside production', () => {
    expect(['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'].map(isLoopbackHost)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['0.0.0.0', '::', '10.0.0.5', 'api.example.com'].map(isLoopbackHost)).toEqual([false, false, false, false]);
    expect(givenSecretProblems({})).toHaveLength(SECRET_NAMES.length);
  });
});
