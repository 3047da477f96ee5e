import type { AuthRenewMessage } from './protocol.ts';
import type { Send, Socket, SocketAuthenticator, SocketIdentity, SocketRefusal } from './sockets.ts';
import type { z } from 'zod';

type RenewData = z.output<typeof AuthRenewMessage>['data'];

/**
 * In-band renewal (`auth.renew`): a new access token or ticket of the same account moves the
 * socket's expiry (and, for a token of a newer session, the session whose closing closes it). A
 * refused renewal leaves the socket as it was: the client may still renew with a good token
 * before the current expiry.
 */
export function renewer(authenticate: SocketAuthenticator, send: Send, scheduleExpiry: (ws: Socket) => void) {
  return async function renew(ws: Socket, data: RenewData): Promise<void> {
    let result: SocketIdentity | SocketRefusal;
    try {
      result = await authenticate(new URLSearchParams(data));
    } catch {
      return send(ws, 'error', {
        code: 'internal_error',
        message: 'Internal error.',
        details: { in_reply_to: 'auth.renew' },
      });
    }
    if ('code' in result) {
      return send(ws, 'error', {
        code: result.code,
        message: result.message,
        details: { ...result.details, in_reply_to: 'auth.renew' },
      });
    }
    if (result.accountId !== ws.data.accountId) {
      return send(ws, 'error', {
        code: 'forbidden',
        message: 'The token belongs to another account; open a new socket for it.',
        details: { reason: 'other_account', in_reply_to: 'auth.renew' },
      });
    }
    if (ws.data.closed) return;
    ws.data.sessionId = result.sessionId;
    ws.data.expiresAt = result.expiresAt;
    send(ws, 'auth.renewed', { expires_at: result.expiresAt.toISOString() });
    scheduleExpiry(ws);
  };
}
