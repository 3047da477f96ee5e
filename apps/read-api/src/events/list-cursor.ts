import type { CursorCodec } from '@guest/http-kit';
import type { Clock } from '@guest/runtime';
import type { EventScope } from './query.ts';
import { checkFingerprint, listFingerprint, malformedCursor } from './scope.ts';

/** The keyset-paged events lists; each names its cursors' scope (`events-<list>`) and fingerprint. */
export type EventList = 'upcoming' | 'feed';

/**
 * What every list cursor carries besides the position after the last card of its page: `h` the
 * list's fingerprint, `n` the instant (epoch ms) and `t` the today its first page was read at.
 */
export interface ListCursor {
  h: string;
  n: number;
  t: string;
}

export interface ResumedList<P> {
  /** The list's scope as of its first page's instant (null: nothing is left of its window). */
  scope: EventScope | null;
  /** Where the previous page ended; undefined on a first page. */
  position: (ListCursor & P) | undefined;
  /** The cursor of the page after the one ending at `position` (only with a scope). */
  cursorAfter(position: P): string;
}

const isSafeInt = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v);

/**
 * A list (upcoming, the by-day feed) is read as of its first page: the first page reads its scope
 * at the clock, later pages at the first page's instant carried in the cursor, so that the list is
 * one answer however long it takes to page through (an occurrence ending, or local midnight passing,
 * between two pages neither drops nor repeats one, and the cursor stays valid).
 *
 * Resumes `list` from `cursor`: refuses one whose payload is not this list's shape (`isPosition`
 * checks the position part; 400 `malformed` on `cursor`), reads the scope with `scopeAt`, and
 * refuses a cursor of the same list with other filters, window or today (400 `foreign`).
 */
export function resumeList<P extends object>(
  deps: { cursors: CursorCodec; clock: Clock },
  list: EventList,
  cursor: string | undefined,
  isPosition: (payload: Record<string, unknown>) => boolean,
  scopeAt: (now: Date) => EventScope | null,
): ResumedList<P> {
  const cursorScope = `events-${list}`;
  let position: (ListCursor & P) | undefined;
  if (cursor) {
    const decoded = deps.cursors.decode<unknown>(cursorScope, cursor);
    const o = decoded as Record<string, unknown> | null;
    const valid =
      typeof o === 'object' &&
      o !== null &&
      typeof o.h === 'string' &&
      typeof o.t === 'string' &&
      isSafeInt(o.n) &&
      isPosition(o);
    if (!valid) throw malformedCursor();
    position = decoded as ListCursor & P;
  }
  const scope = scopeAt(position ? new Date(position.n) : deps.clock.now());
  const h = scope ? listFingerprint(scope, list) : 'empty';
  if (position) {
    checkFingerprint(h, position.h);
    checkFingerprint(scope?.today ?? 'empty', position.t);
  }
  return {
    scope,
    position,
    cursorAfter(p: P) {
      if (!scope) throw new Error('a list with nothing in its window has no next page');
      return deps.cursors.encode(cursorScope, { h, n: scope.now.getTime(), t: scope.today, ...p });
    },
  };
}

/** Every element a safe integer (positions are made of ids, epoch ms and minute keys). */
export function safeInts(...values: unknown[]): boolean {
  return values.every(isSafeInt);
}
