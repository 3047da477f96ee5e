/**
 * The line under an event's title: its category, venue and place, each said once. A venue's name
 * may already hold the category or the place ("Festivals · Pathum Wan" in Pathum Wan): the parts
 * of its name (split at "·" and ",") that repeat the category or the place are left out, and a
 * venue named by nothing else is left out whole.
 */
export function venueLine(categoryName: string, venue: { name: string; place_name: string | null }): string {
  const key = (s: string) => s.trim().toLocaleLowerCase();
  const said = new Set([key(categoryName), ...(venue.place_name ? [key(venue.place_name)] : [])]);
  const own = venue.name
    .split(/\s*[·,]\s*/)
    .map((s) => s.trim())
    .filter((s) => s && !said.has(key(s)));
  const venueName = [...new Set(own)].join(' · ');
  return [categoryName, venueName, venue.place_name ?? ''].filter(Boolean).join(' · ');
}
