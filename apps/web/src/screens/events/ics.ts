/**
 * One occurrence of an event as an iCalendar file (RFC 5545), made in the page from the event
 * page's answer: the spec has no calendar endpoint, and everything the file says (the instants,
 * the venue's zone, the venue and its point) is already in `/v1/events/{slug}`.
 *
 * Times are the venue's wall clock with `TZID` and a `VTIMEZONE` of that zone, as the spec keeps
 * an object's time in its own zone. Browsers know the zone's offsets (Intl) but not its rules, so
 * the `VTIMEZONE` holds the offset in force during the occurrence: true for every instant the file
 * names. An occurrence across a change of offset (a DST switch) is written in UTC instead, which
 * is exact too.
 */

export interface IcsOccurrence {
  /** Event id and slug: the UID is made of them and the start. */
  id: number;
  slug: string;
  title: string;
  description?: string | null | undefined;
  /** Start and end instants (UTC, ISO 8601). */
  start_at: string;
  end_at: string;
  /** IANA zone of the venue. */
  timezone: string;
  venue: { name: string; place_name: string | null };
  point: { lat: number; lon: number } | null;
  /** The event page's address. */
  url?: string | undefined;
}

const CRLF = '\r\n';
const encoder = new TextEncoder();

/** TEXT value escaping (RFC 5545 3.3.11): backslash, semicolon, comma, line breaks. */
export function escapeText(s: string): string {
  return s
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/**
 * Folds a content line at 75 octets (RFC 5545 3.1): continuation lines start with one space,
 * which counts toward their 75. A UTF-8 character is never split (Thai and Chinese letters are 3
 * octets, some symbols 4).
 */
export function foldLine(line: string): string {
  const out: string[] = [];
  let current = '';
  let octets = 0;
  for (const ch of line) {
    const n = encoder.encode(ch).length;
    if (octets + n > 75) {
      out.push(current);
      current = ' ';
      octets = 1;
    }
    current += ch;
    octets += n;
  }
  out.push(current);
  return out.join(CRLF);
}

const two = (n: number) => String(n).padStart(2, '0');

/** `YYYYMMDDTHHMMSSZ` of an instant. */
export function utcStamp(d: Date): string {
  return (
    `${d.getUTCFullYear()}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}` +
    `T${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())}Z`
  );
}

/** `YYYYMMDDTHHMMSS` of an instant on the wall clock of `zone`. */
export function localStamp(d: Date, zone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}${parts.month}${parts.day}T${parts.hour}${parts.minute}${parts.second}`;
}

/** The UTC offset of `zone` at an instant, as iCalendar writes it (`+0700`). */
export function utcOffset(d: Date, zone: string): string {
  const name =
    new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
      .formatToParts(d)
      .find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /^GMT([+-])(\d{2}):?(\d{2})?$/.exec(name);
  return m ? `${m[1]}${m[2]}${m[3] ?? '00'}` : '+0000';
}

/** A file name for the download: the slug and the local start day. */
export function icsFileName(o: Pick<IcsOccurrence, 'slug' | 'start_at' | 'timezone'>): string {
  return `${o.slug}-${localStamp(new Date(o.start_at), o.timezone).slice(0, 8)}.ics`;
}

/**
 * The calendar: one `VEVENT` (UID, DTSTAMP, DTSTART/DTEND, SUMMARY, LOCATION, GEO, DESCRIPTION,
 * URL), lines folded, CRLF line ends. `now` is DTSTAMP (when the file was made); `host` makes the
 * UID globally unique.
 */
export function occurrenceIcs(o: IcsOccurrence, opts: { now: Date; host: string }): string {
  const start = new Date(o.start_at);
  const end = new Date(o.end_at);
  const offset = utcOffset(start, o.timezone);
  const zoned = offset === utcOffset(end, o.timezone);
  const location = [o.venue.name, o.venue.place_name].filter((s): s is string => Boolean(s)).join(', ');
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Guest//Events//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
  ];
  if (zoned) {
    lines.push(
      'BEGIN:VTIMEZONE',
      `TZID:${o.timezone}`,
      'BEGIN:STANDARD',
      'DTSTART:19700101T000000',
      `TZOFFSETFROM:${offset}`,
      `TZOFFSETTO:${offset}`,
      'END:STANDARD',
      'END:VTIMEZONE',
    );
  }
  const at = (d: Date) => (zoned ? `;TZID=${o.timezone}:${localStamp(d, o.timezone)}` : `:${utcStamp(d)}`);
  lines.push(
    'BEGIN:VEVENT',
    `UID:event-${o.id}-${utcStamp(start)}@${opts.host}`,
    `DTSTAMP:${utcStamp(opts.now)}`,
    `DTSTART${at(start)}`,
    `DTEND${at(end)}`,
    `SUMMARY:${escapeText(o.title)}`,
  );
  if (location) lines.push(`LOCATION:${escapeText(location)}`);
  if (o.point) lines.push(`GEO:${o.point.lat.toFixed(6)};${o.point.lon.toFixed(6)}`);
  if (o.description) lines.push(`DESCRIPTION:${escapeText(o.description)}`);
  if (o.url) lines.push(`URL:${o.url}`);
  lines.push('END:VEVENT', 'END:VCALENDAR');
  return lines.map(foldLine).join(CRLF) + CRLF;
}
