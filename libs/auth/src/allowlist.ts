/**
 * Spec 5.9: on a test stand only listed emails or domains sign in. Entries are full emails
 * (`anna@example.com`) or domains (`example.com` or `@example.com`); an empty list allows all.
 */
export function parseAllowlist(raw: string): string[] {
  return raw
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
}

export function isAllowedToSignIn(allowlist: string[], email: string): boolean {
  if (!allowlist.length) return true;
  const e = email.toLowerCase();
  const domain = e.slice(e.lastIndexOf('@') + 1);
  return allowlist.some((entry) =>
    entry.includes('@') && !entry.startsWith('@') ? entry === e : entry.replace(/^@/, '') === domain,
  );
}
