/**
 * Whether `If-None-Match` names `etag` (or is `*`): the weak comparison of RFC 9110 13.1.2, so a
 * tag made weak by compression (`W/"…"`) still matches the strong one the route computes.
 */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => t.trim() === '*' || bare(t) === bare(etag));
}
