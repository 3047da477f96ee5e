import { connectSocket, type GuestSocket, type SocketMessage } from '@guest/client';
import { api, type Schemas } from '../api.ts';
import { location } from '../router.ts';
import { clearSession, session, tokenStore } from '../session.ts';
import { createStore } from '../store.ts';

type Badges = Schemas['BadgesResponse'];

/**
 * The signed-in page's socket (`/v1/ws`, SDK `connectSocket` with the access token): it keeps the
 * unread badges fresh (`badges.updated`) and signs the page out at once when its session ends
 * elsewhere (`session.closed`, or the socket closed with 4001). Before the socket is open, and on
 * return to the page, the badges come from `GET /v1/me/badges`, kept one minute (spec 6.1).
 */
export const badges = createStore<Badges | null>(null);
/** Whether the socket is open (the header shows the badges as live). */
export const socketOpen = createStore(false);

const BADGES_TTL_MS = 60_000;
const SESSION_CLOSED = 4001;
const EXPIRED = 4401;

let socket: GuestSocket | null = null;
let forSession: string | null = null;
let badgesAt = 0;
let connecting = false;
let retryMs = 1000;
let retryTimer: ReturnType<typeof setTimeout> | undefined;

async function loadBadges(force = false): Promise<void> {
  if (!session.get() || (!force && Date.now() - badgesAt < BADGES_TTL_MS)) return;
  const { data } = await api.GET('/v1/me/badges');
  if (data && session.get()) {
    badges.set(data);
    badgesAt = Date.now();
  }
}

function onMessage(m: SocketMessage): void {
  const current = session.get();
  if (m.type === 'badges.updated') {
    badges.set(m.data as Badges);
    badgesAt = Date.now();
  } else if (m.type === 'session.closed') {
    if (current && (m.data as { session_id?: string }).session_id === current.session_id) clearSession();
  } else if (m.type === 'auth.expiring') {
    void renew();
  }
}

/** Before the socket's token lapses: a fresh access token (refresh), handed to the socket. */
async function renew(): Promise<void> {
  const pair = session.get();
  if (!pair || !socket) return;
  const { data } = await api.POST('/v1/auth/refresh', { body: { refresh_token: pair.refresh_token } });
  if (!data) return; // the socket closes with 4401 and is opened again with whatever the session is then
  tokenStore.set(data);
  socket.send('auth.renew', { access_token: data.access_token });
}

function disconnect(): void {
  clearTimeout(retryTimer);
  const s = socket;
  socket = null;
  forSession = null;
  socketOpen.set(false);
  s?.close(1000, 'signed out');
}

async function connect(): Promise<void> {
  clearTimeout(retryTimer);
  const pair = session.get();
  if (!pair || socket || connecting) return;
  forSession = pair.session_id;
  connecting = true;
  let opened: GuestSocket;
  try {
    opened = await connectSocket({ baseUrl: window.location.origin, accessToken: pair.access_token });
  } catch {
    connecting = false;
    // Refused (an expired token, an unconfirmed email) or unreachable: a request refreshes the
    // token when it lapsed, then another try, less and less often.
    if (session.get()?.session_id !== forSession) return;
    forSession = null;
    await loadBadges(true);
    if (!socket && !connecting) retryTimer = setTimeout(() => void connect(), retryMs);
    retryMs = Math.min(retryMs * 2, 60_000);
    return;
  }
  connecting = false;
  if (session.get()?.session_id !== pair.session_id) {
    opened.close(1000, 'signed out');
    return;
  }
  socket = opened;
  retryMs = 1000;
  socketOpen.set(true);
  const stop = opened.on(onMessage);
  void loadBadges(true);
  void opened.closed.then((code) => {
    stop();
    if (socket !== opened) return;
    socket = null;
    forSession = null;
    socketOpen.set(false);
    if (code === SESSION_CLOSED) {
      clearSession();
      return;
    }
    // 4401: the token lapsed without a renewal; anything else: the server went away. Reopen.
    retryTimer = setTimeout(() => void connect(), code === EXPIRED ? 0 : retryMs);
  });
}

/** Opens the socket now (after the email was confirmed), not at the next retry. */
export function reconnectRealtime(): void {
  retryMs = 1000;
  if (!socket) void connect();
}

/** Follows the session: a socket while signed in (one per session), none when signed out. */
export function startRealtime(): void {
  const follow = (pair: ReturnType<typeof session.get>) => {
    if (!pair) {
      disconnect();
      badges.set(null);
      badgesAt = 0;
      return;
    }
    if (forSession !== pair.session_id) {
      disconnect();
      void connect();
    }
  };
  session.subscribe(follow);
  follow(session.get());
  // On return to the page or to a screen (spec 6.1), within the minute the reply is kept.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void loadBadges();
  });
  location.subscribe(() => void loadBadges());
}
