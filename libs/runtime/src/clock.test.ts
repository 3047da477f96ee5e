import { describe, expect, it } from 'vitest';
import { fixedClock } from './clock.ts';

describe('fixedClock: time moves only when told, and its timers with it', () => {
  it('runs the timers due by the new time, in order, each reading its own instant', () => {
    const clock = fixedClock('2026-11-21T05:00:00Z');
    const ran: string[] = [];
    const at = () => clock.now().toISOString().slice(11, 23);
    clock.after(2000, () => ran.push(`b ${at()}`));
    clock.after(1000, () => ran.push(`a ${at()}`));
    clock.after(5000, () => ran.push(`c ${at()}`));
    clock.advance(999);
    expect(ran).toEqual([]);
    clock.advance(1501);
    expect(ran).toEqual(['a 05:00:01.000', 'b 05:00:02.000']);
    expect(at()).toBe('05:00:02.500');
    clock.set('2026-11-21T05:00:10Z');
    expect(ran).toEqual(['a 05:00:01.000', 'b 05:00:02.000', 'c 05:00:05.000']);
  });

  it('a cancelled timer never runs; one set by a timer runs in the same move when due', () => {
    const clock = fixedClock('2026-11-21T05:00:00Z');
    const ran: string[] = [];
    const cancel = clock.after(100, () => ran.push('cancelled'));
    clock.after(200, () => clock.after(100, () => ran.push('chained')));
    cancel();
    clock.advance(300);
    expect(ran).toEqual(['chained']);
  });
});
