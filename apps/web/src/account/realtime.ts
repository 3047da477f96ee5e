import { connectSocket, type GuestSocket, type SocketMessage } from '@guest/client';
import { api, type Schemas } from '../api.ts';
import { location } from '../router.ts';
import { clearSession, session } from '../session.ts';
import { createStore } from '../store.ts';

type Badges = Schemas['BadgesResponse'];

/**
 * The signed-in page's socket (`/v1/ws`, SDK `connectSocket` with a ticket of
 * `POST /v1/auth/ws-ticket`: the page holds no access token, spec 5.12): it keeps the unread
 * badges fresh (`badges.updated`) and signs the page out at once when its session ends elsewhere
 * (the socket of a closed session is closed with 4001). Before the socket is open, and on return
 * to the page, the badges come from `GET /v1/me/badges`, kept one minute (spec 6.1).
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
  if (m.type === 'badges.updated') {
    badges.set(m.data as Badges);
    badgesAt = Date.now();
  } else if (m.type === 'auth.expiring') {
    void renew();
  }
}

/** A socket ticket of the cookie session (the SDK refreshes the session first when it lapsed). */
async function ticket(): Promise<string | null> {
  const { data } = await api.POST('/v1/auth/ws-ticket');
  return data?.ticket ?? null;
}

/** Before the socket's lifetime runs out: a fresh ticket, handed to the socket. */
async function renew(): Promise<void> {
  if (!session.get() || !socket) return;
  const fresh = await ticket();
  // Without one the socket closes with 4401 and is opened again with whatever the session is then.
  if (fresh && socket) socket.send('auth.renew', { ticket: fresh });
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
  const mark = session.get();
  if (!mark || socket || connecting) return;
  forSession = mark.id;
  connecting = true;
  let opened: GuestSocket;
  try {
    const t = await ticket();
    if (!t) throw new Error('no socket ticket');
    opened = await connectSocket({ baseUrl: window.location.origin, ticket: t });
  } catch {
    connecting = false;
    // Refused (an unconfirmed email, a lapsed ticket) or unreachable: another try, less and
    // less often.
    if (session.get()?.id !== forSession) return;
    forSession = null;
    await loadBadges(true);
    if (!socket && !connecting) retryTimer = setTimeout(() => void connect(), retryMs);
    retryMs = Math.min(retryMs * 2, 60_000);
    return;
  }
  connecting = false;
  if (session.get()?.id !== mark.id) {
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
  const follow = (mark: ReturnType<typeof session.get>) => {
    if (!mark) {
      disconnect();
      badges.set(null);
      badgesAt = 0;
      return;
    }
    if (forSession !== mark.id) {
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
