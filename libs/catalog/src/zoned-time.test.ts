import { describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { addDays, epochDay, isoDate, isoWeekday, todayIn, zonedInstant } from './zoned-time.ts';

describe('zoned time (pure)', () => {
  it('spring forward: given 02:30 on the night Berlin skips 02:00–03:00, then it is read as 03:30 CEST', () => {
    expect(zonedInstant('2027-03-28', '02:30', 'Europe/Berlin')).toBe('2027-03-28T01:30:00Z');
    expect(zonedInstant('2027-03-28', '01:59', 'Europe/Berlin')).toBe('2027-03-28T00:59:00Z');
    expect(zonedInstant('2027-03-28', '03:00', 'Europe/Berlin')).toBe('2027-03-28T01:00:00Z');
  });

  it('fall back: given 02:30 on the night Berlin shows 02:00–03:00 twice, then the first (CEST) instant is taken', () => {
    expect(zonedInstant('2027-10-31', '02:30', 'Europe/Berlin')).toBe('2027-10-31T00:30:00Z');
    expect(zonedInstant('2027-10-31', '03:00', 'Europe/Berlin')).toBe('2027-10-31T02:00:00Z');
  });

  it('southern hemisphere and half-hour zones: given Sydney, Adelaide and Kathmandu, then the local offset of that date applies', () => {
    expect(zonedInstant('2027-01-10', '09:00', 'Australia/Sydney')).toBe('2027-01-09T22:00:00Z');
    expect(zonedInstant('2027-07-10', '09:00', 'Australia/Sydney')).toBe('2027-07-09T23:00:00Z');
    expect(zonedInstant('2027-01-10', '09:00', 'Australia/Adelaide')).toBe('2027-01-09T22:30:00Z');
    expect(zonedInstant('2027-01-10', '09:00', 'Asia/Kathmandu')).toBe('2027-01-10T03:15:00Z');
  });

  // About 18,000 instants against Luxon: seconds alone, several times that on a loaded 2-core machine.
  it('agrees with Luxon: given every hour (every half hour at night) of every third day of 2027 in zones with and without DST, then each is the same instant, the earlier one where a fall-back shows it twice', () => {
    const zones = ['Asia/Bangkok', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'America/Santiago'];
    let checked = 0;
    let shownTwice = 0;
    for (const zone of zones) {
      for (let d = epochDay('2027-01-01'); d < epochDay('2028-01-01'); d += 3) {
        // Clocks change at night: half hours there, whole hours elsewhere.
        for (let minutes = 0; minutes < 24 * 60; minutes += minutes < 5 * 60 ? 30 : 60) {
          const day = isoDate(d);
          const hhmm = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
          const luxon = DateTime.fromISO(`${day}T${hhmm}`, { zone });
          // Luxon picks between the two instants of a repeated time by today's offset, so the
          // instants half an hour and an hour away that show the same wall clock are looked for.
          const wall = (ms: number) => DateTime.fromMillis(ms, { zone }).toFormat("yyyy-MM-dd'T'HH:mm");
          const same = [-3_600_000, -1_800_000, 0, 1_800_000, 3_600_000]
            .map((delta) => luxon.toMillis() + delta)
            .filter((ms) => wall(ms) === wall(luxon.toMillis()));
          if (same.length > 1) shownTwice++;
          expect(zonedInstant(day, hhmm, zone), `${zone} ${day} ${hhmm}`).toBe(
            `${new Date(Math.min(...same)).toISOString().slice(0, 19)}Z`,
          );
          checked++;
        }
      }
    }
    expect(checked).toBe(5 * 122 * (10 + 19));
    expect(shownTwice, 'the sample crosses fall-back nights').toBeGreaterThan(0);
  }, 60_000);

  it('calendar arithmetic: given month, year and leap-day edges, then days and weekdays follow the calendar', () => {
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2027-02-28', 1)).toBe('2027-03-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2027-01-01', -1)).toBe('2026-12-31');
    expect(isoWeekday(epochDay('1970-01-01'))).toBe(4);
    expect(isoWeekday(epochDay('2026-11-23'))).toBe(1);
    expect(isoWeekday(epochDay('2026-11-29'))).toBe(7);
    expect(isoWeekday(epochDay('1969-12-28'))).toBe(7);
  });

  it('today in a zone: given one instant, then each zone has its own date, including near midnight', () => {
    const now = new Date('2026-11-21T16:59:59.999Z');
    expect(todayIn('Asia/Bangkok', now)).toBe('2026-11-21');
    expect(todayIn('Asia/Bangkok', new Date('2026-11-21T17:00:00Z'))).toBe('2026-11-22');
    expect(todayIn('Pacific/Kiritimati', now)).toBe('2026-11-22');
    expect(todayIn('Pacific/Pago_Pago', now)).toBe('2026-11-21');
  });
});
