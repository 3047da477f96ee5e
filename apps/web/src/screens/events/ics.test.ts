import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { escapeText, foldLine, icsFileName, localStamp, occurrenceIcs, utcOffset, type IcsOccurrence } from './ics.ts';

const octets = (s: string) => new TextEncoder().encode(s).length;
const unfold = (s: string) => s.replace(/\r\n /g, '');

const occurrence: IcsOccurrence = {
  id: 42,
  slug: 'night-market-in-kata-42',
  title: 'Night market; food, music \\ dance',
  description: 'Stalls by the beach.\nBring cash, please.',
  start_at: '2026-12-04T12:00:00.000Z',
  end_at: '2026-12-04T16:30:00.000Z',
  timezone: 'Asia/Bangkok',
  venue: { name: 'Kata Beach', place_name: 'Kata' },
  point: { lat: 7.82, lon: 98.3 },
  url: 'http://127.0.0.1:8080/events/night-market-in-kata-42',
};
const now = new Date('2026-11-27T10:15:30Z');

describe('an event occurrence as an iCalendar file (RFC 5545)', () => {
  it('escapes backslash, semicolon, comma and line breaks in TEXT values', () => {
    expect(escapeText('a\\b;c,d\ne\r\nf')).toBe('a\\\\b\\;c\\,d\\ne\\nf');
  });

  it('folds at 75 octets without splitting a character: Thai and Chinese text', () => {
    for (const text of [
      'เทศกาลลอยกระทงริมทะเลกะตะ'.repeat(6),
      '普吉岛夜市与海滩音乐节'.repeat(9),
      'a'.repeat(200),
      '🎉'.repeat(40),
    ]) {
      const line = `SUMMARY:${text}`;
      const folded = foldLine(line);
      const parts = folded.split('\r\n');
      expect(parts.length).toBeGreaterThan(1);
      for (const [i, part] of parts.entries()) {
        expect(octets(part), `line ${i}`).toBeLessThanOrEqual(75);
        if (i > 0) expect(part.startsWith(' ')).toBe(true);
        // No broken character: each part is valid UTF-8 on its own.
        expect(part).not.toContain('\uFFFD');
        expect(new TextDecoder('utf-8', { fatal: true }).decode(new TextEncoder().encode(part))).toBe(part);
      }
      expect(unfold(folded)).toBe(line);
    }
    expect(foldLine('SHORT:line')).toBe('SHORT:line');
  });

  it('writes the venue wall clock with TZID and a VTIMEZONE of its offset, CRLF line ends', () => {
    const ics = occurrenceIcs(occurrence, { now, host: 'guest.example' });
    expect(ics.endsWith('\r\n')).toBe(true);
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const lines = unfold(ics).split('\r\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'TZID:Asia/Bangkok',
        'TZOFFSETFROM:+0700',
        'TZOFFSETTO:+0700',
        'UID:event-42-20261204T120000Z@guest.example',
        'DTSTAMP:20261127T101530Z',
        'DTSTART;TZID=Asia/Bangkok:20261204T190000',
        'DTEND;TZID=Asia/Bangkok:20261204T233000',
        'SUMMARY:Night market\\; food\\, music \\\\ dance',
        'LOCATION:Kata Beach\\, Kata',
        'GEO:7.820000;98.300000',
        'DESCRIPTION:Stalls by the beach.\\nBring cash\\, please.',
        'URL:http://127.0.0.1:8080/events/night-market-in-kata-42',
      ]),
    );
    for (const line of ics.split('\r\n')) expect(octets(line)).toBeLessThanOrEqual(75);
  });

  it('parses with ical.js: the same instants, the zone, the texts (Thai and Chinese folded lines too)', () => {
    for (const title of [
      'งานลอยกระทงริมหาดกะตะพร้อมดนตรีสดและอาหารพื้นเมือง, ครอบครัว; เด็ก',
      '普吉岛夜市：美食、音乐与舞蹈，适合全家；免费入场',
    ]) {
      const ics = occurrenceIcs(
        { ...occurrence, title, venue: { name: 'ตลาดกะตะ', place_name: '卡塔' } },
        { now, host: 'h' },
      );
      const comp = new ICAL.Component(ICAL.parse(ics));
      const tz = comp.getFirstSubcomponent('vtimezone');
      expect(tz?.getFirstPropertyValue('tzid')).toBe('Asia/Bangkok');
      ICAL.TimezoneService.register(new ICAL.Timezone(tz!));
      const event = new ICAL.Event(comp.getFirstSubcomponent('vevent')!);
      expect(event.summary).toBe(title);
      expect(event.location).toBe('ตลาดกะตะ, 卡塔');
      const vevent = comp.getFirstSubcomponent('vevent')!;
      expect(vevent.getFirstProperty('dtstart')?.getParameter('tzid')).toBe('Asia/Bangkok');
      expect(event.startDate.zone?.tzid).toBe('Asia/Bangkok');
      expect(event.startDate.toString()).toBe('2026-12-04T19:00:00');
      expect(event.startDate.toJSDate().toISOString()).toBe(occurrence.start_at);
      expect(event.endDate.toJSDate().toISOString()).toBe(occurrence.end_at);
      expect(event.description).toBe('Stalls by the beach.\nBring cash, please.');
      const geo = vevent.getFirstPropertyValue('geo') as unknown as number[];
      expect(geo).toEqual([7.82, 98.3]);
    }
  });

  it('an occurrence across a change of offset is written in UTC, exact all the same', () => {
    // Berlin leaves summer time at 01:00 UTC on 2026-10-25.
    const ics = occurrenceIcs(
      { ...occurrence, timezone: 'Europe/Berlin', start_at: '2026-10-24T22:00:00Z', end_at: '2026-10-25T03:00:00Z' },
      { now, host: 'h' },
    );
    expect(ics).not.toContain('VTIMEZONE');
    expect(ics).toContain('DTSTART:20261024T220000Z\r\n');
    expect(ics).toContain('DTEND:20261025T030000Z\r\n');
  });

  it('reads offsets and wall clocks of the zone, and names the file by slug and local day', () => {
    expect(utcOffset(new Date('2026-07-01T00:00:00Z'), 'Asia/Bangkok')).toBe('+0700');
    expect(utcOffset(new Date('2026-07-01T00:00:00Z'), 'America/St_Johns')).toBe('-0230');
    expect(utcOffset(new Date('2026-07-01T00:00:00Z'), 'UTC')).toBe('+0000');
    expect(localStamp(new Date('2026-12-04T17:30:00Z'), 'Asia/Bangkok')).toBe('20261205T003000');
    expect(icsFileName({ slug: 'x', start_at: '2026-12-04T17:30:00Z', timezone: 'Asia/Bangkok' })).toBe(
      'x-20261205.ics',
    );
  });
});
