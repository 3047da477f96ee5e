import { addDays, todayIn } from '@guest/catalog';
import { describe, expect, it } from 'vitest';
import { expandSchedule, type ScheduleSlot } from './expand-schedule.ts';

describe('expandSchedule (pure)', () => {
  it('weekly with exceptions: given mon/wed/fri with 2026-12-02 excepted, when expanded from Sat 2026-11-21, then Wednesdays skip only that date', () => {
    const occ = expandSchedule(
      [
        {
          kind: 'weekly',
          days: ['mon', 'wed', 'fri'],
          from: '2026-11-01',
          until: '2027-06-30',
          except: ['2026-12-02'],
          start: '06:30',
          end: '07:30',
        },
      ],
      'Asia/Bangkok',
      '2026-11-21',
      14,
    );
    expect(occ.map((o) => o.day)).toEqual(['2026-11-23', '2026-11-25', '2026-11-27', '2026-11-30', '2026-12-04']);
    expect(occ[0]).toMatchObject({
      start: '06:30',
      end: '07:30',
      startAt: '2026-11-22T23:30:00Z',
      endAt: '2026-11-23T00:30:00Z',
      endsNextDay: false,
    });
  });

  it('weekly rule bounds: given from/until inside the window, then no day outside them', () => {
    const occ = expandSchedule(
      [
        {
          kind: 'weekly',
          days: ['sat', 'sun'],
          from: '2026-11-28',
          until: '2026-12-05',
          except: [],
          start: '10:00',
          end: '11:00',
        },
      ],
      'Asia/Bangkok',
      '2026-11-21',
      180,
    );
    expect(occ.map((o) => o.day)).toEqual(['2026-11-28', '2026-11-29', '2026-12-05']);
  });

  it('after midnight: given 22:00–03:00, then the end is on the next day and the instants are 5 hours apart', () => {
    const [o] = expandSchedule(
      [{ kind: 'once', date: '2026-11-28', start: '22:00', end: '03:00' }],
      'Asia/Bangkok',
      '2026-11-21',
      180,
    );
    expect(o).toEqual({
      slot: 0,
      day: '2026-11-28',
      start: '22:00',
      end: '03:00',
      startAt: '2026-11-28T15:00:00Z',
      endAt: '2026-11-28T20:00:00Z',
      endsNextDay: true,
    });
  });

  it('daylight saving: given Sundays 10:00 in Europe/Berlin across 2027-03-28, then local time stays 10:00 and UTC moves by one hour', () => {
    const occ = expandSchedule(
      [
        {
          kind: 'weekly',
          days: ['sun'],
          from: '2027-03-21',
          until: '2027-04-04',
          except: [],
          start: '10:00',
          end: '11:00',
        },
      ],
      'Europe/Berlin',
      '2026-11-21',
      180,
    );
    expect(occ.map((o) => [o.day, o.startAt, o.endAt])).toEqual([
      ['2027-03-21', '2027-03-21T09:00:00Z', '2027-03-21T10:00:00Z'],
      ['2027-03-28', '2027-03-28T08:00:00Z', '2027-03-28T09:00:00Z'],
      ['2027-04-04', '2027-04-04T08:00:00Z', '2027-04-04T09:00:00Z'],
    ]);
  });

  it('daylight saving and midnight together: given Sat 2027-03-27 22:00–03:00 in Berlin, then it lasts 4 real hours', () => {
    const [o] = expandSchedule(
      [{ kind: 'once', date: '2027-03-27', start: '22:00', end: '03:00' }],
      'Europe/Berlin',
      '2026-11-21',
      180,
    );
    expect(o!.startAt).toBe('2027-03-27T21:00:00Z');
    expect(o!.endAt).toBe('2027-03-28T01:00:00Z');
  });

  it('horizon: given 180 days from 2026-11-21, then 2027-05-19 is the last day in it and past one-offs are left out', () => {
    const occ = expandSchedule(
      [
        { kind: 'once', date: '2026-11-20', start: '10:00', end: '11:00' },
        { kind: 'once', date: '2027-05-19', start: '10:00', end: '11:00' },
        { kind: 'once', date: '2027-05-20', start: '10:00', end: '11:00' },
      ],
      'Asia/Bangkok',
      '2026-11-21',
      180,
    );
    expect(occ.map((o) => o.day)).toEqual(['2027-05-19']);
    expect(addDays('2026-11-21', 179)).toBe('2027-05-19');
  });

  it('still running: given 22:00–03:00 every day and "now" 00:30 in the zone, then the occurrence of the day before is kept until its end', () => {
    const nightly: ScheduleSlot[] = [
      {
        kind: 'weekly',
        days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
        from: '2026-11-01',
        until: '2026-12-31',
        except: [],
        start: '22:00',
        end: '03:00',
      },
    ];
    const at = (iso: string) => expandSchedule(nightly, 'Asia/Bangkok', '2026-11-29', 2, new Date(iso));
    expect(at('2026-11-28T17:30:00Z').map((o) => o.day)).toEqual(['2026-11-28', '2026-11-29', '2026-11-30']);
    expect(
      at('2026-11-28T20:00:00Z').map((o) => o.day),
      'ended at 03:00',
    ).toEqual(['2026-11-29', '2026-11-30']);
    expect(
      expandSchedule(nightly, 'Asia/Bangkok', '2026-11-29', 2).map((o) => o.day),
      'without "now", only days from today',
    ).toEqual(['2026-11-29', '2026-11-30']);
  });

  it('still running: given a day-time occurrence of the day before, then it is not kept (it ended before midnight)', () => {
    const occ = expandSchedule(
      [{ kind: 'once', date: '2026-11-28', start: '10:00', end: '11:00' }],
      'Asia/Bangkok',
      '2026-11-29',
      180,
      new Date('2026-11-28T17:30:00Z'),
    );
    expect(occ).toEqual([]);
  });

  it('today is the date in the venue zone: 2026-11-21T20:00Z is already the 22nd in Bangkok but the 21st in Berlin', () => {
    const now = new Date('2026-11-21T20:00:00Z');
    expect(todayIn('Asia/Bangkok', now)).toBe('2026-11-22');
    expect(todayIn('Europe/Berlin', now)).toBe('2026-11-21');
  });

  it('one occurrence per day and time: given a one-off date that repeats a weekly slot, then it is listed once', () => {
    const occ = expandSchedule(
      [
        {
          kind: 'weekly',
          days: ['fri'],
          from: '2026-11-01',
          until: '2026-12-31',
          except: [],
          start: '20:00',
          end: '23:00',
        },
        { kind: 'once', date: '2026-11-27', start: '20:00', end: '23:00' }, // a Friday
        { kind: 'once', date: '2026-11-28', start: '20:00', end: '23:00' }, // a Saturday: its own occurrence
        { kind: 'once', date: '2026-12-04', start: '18:00', end: '19:00' }, // a Friday, other times
      ],
      'Asia/Bangkok',
      '2026-11-21',
      14,
    );
    expect(occ.map((o) => `${o.day} ${o.start} #${o.slot}`)).toEqual([
      '2026-11-27 20:00 #0',
      '2026-11-28 20:00 #2',
      '2026-12-04 18:00 #3',
      '2026-12-04 20:00 #0',
    ]);
  });
});
