import { useState } from 'preact/hooks';
import { dayLabel } from '../../format.ts';
import { useT } from '../../i18n.ts';

interface Props {
  /** The days the API answers for (`calendar`): from today in the place's zone, `to` exclusive. */
  window: { from: string; to: string };
  /** Ranges not bookable, `to` exclusive. */
  blocked: Array<{ from: string; to: string }>;
  from: string;
  to: string;
  /** A first tap picks the check-in, a second a later check-out. */
  onPick(from: string, to: string | null): void;
}

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const ms = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** One month at a time of the calendar window: blocked days struck out, the chosen stay marked. */
export function Calendar({ window: w, blocked, from, to, onPick }: Props) {
  const t = useT();
  const first = w.from.slice(0, 7);
  const [month, setMonth] = useState(from && from >= w.from ? from.slice(0, 7) : first);
  const start = ms(`${month}-01`);
  const next = new Date(start);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const prev = new Date(start);
  prev.setUTCMonth(prev.getUTCMonth() - 1);
  const lead = (new Date(start).getUTCDay() + 6) % 7;
  const days: string[] = [];
  for (let d = start; d < next.getTime(); d += DAY) days.push(iso(d));
  const isBlocked = (day: string) => blocked.some((b) => b.from <= day && day < b.to);
  const inStay = (day: string) => !!from && day >= from && (to ? day < to : day === from);
  const pick = (day: string) => {
    if (!from || to || day <= from) onPick(day, null);
    else onPick(from, day);
  };
  const weekdays = [...Array(7).keys()].map((i) => dayLabel(iso(ms('2024-01-01') + i * DAY), { weekday: 'narrow' }));
  return (
    <div class="calendar">
      <div class="calendar-head">
        <button
          type="button"
          aria-label="‹"
          disabled={month <= first}
          onClick={() => setMonth(iso(prev.getTime()).slice(0, 7))}
        >
          ‹
        </button>
        <strong>{dayLabel(`${month}-01`, { month: 'long', year: 'numeric' })}</strong>
        <button
          type="button"
          aria-label="›"
          disabled={iso(next.getTime()) >= w.to}
          onClick={() => setMonth(iso(next.getTime()).slice(0, 7))}
        >
          ›
        </button>
      </div>
      <div class="calendar-grid" role="grid" aria-label={t('listing.availability')}>
        {weekdays.map((d, i) => (
          <span key={`w${i}`} class="calendar-weekday" aria-hidden="true">
            {d}
          </span>
        ))}
        {[...Array(lead).keys()].map((i) => (
          <span key={`l${i}`} />
        ))}
        {days.map((day) => {
          const outside = day < w.from || day >= w.to;
          const taken = isBlocked(day);
          return (
            <button
              type="button"
              key={day}
              data-day={day}
              class={`calendar-day${taken ? ' blocked' : ''}${inStay(day) ? ' chosen' : ''}`}
              disabled={outside}
              aria-pressed={inStay(day)}
              aria-label={dayLabel(day, { day: 'numeric', month: 'long' })}
              onClick={() => pick(day)}
            >
              {Number(day.slice(8))}
            </button>
          );
        })}
      </div>
    </div>
  );
}
