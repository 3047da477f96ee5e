import type { Clock } from '@guest/runtime';
import { CLOSE_CODES } from './protocol.ts';
import { clearTimers, end, type Send, type Socket } from './sockets.ts';

/**
 * A socket lives as long as what opened it (or last renewed it): warned `warningMs` before,
 * closed with 4401 `expired` at the instant, so a stolen or outlived token cannot keep a socket
 * listening forever. The timers are the clock's: a test moves the clock past them.
 */
export function expiryScheduler(clock: Clock, warningMs: number, send: Send) {
  return function scheduleExpiry(ws: Socket): void {
    clearTimers(ws);
    const at = ws.data.expiresAt.getTime();
    const warn = () => {
      if (ws.data.warnedFor === at) return;
      ws.data.warnedFor = at;
      send(ws, 'auth.expiring', {
        expires_at: new Date(at).toISOString(),
        expires_in: Math.max(0, Math.round((at - clock.now().getTime()) / 1000)),
      });
    };
    const left = at - clock.now().getTime();
    if (left <= 0) return end(ws, CLOSE_CODES.expired);
    if (left <= warningMs) warn();
    else ws.data.timers.push(clock.after(left - warningMs, warn));
    ws.data.timers.push(clock.after(left, () => end(ws, CLOSE_CODES.expired)));
  };
}
