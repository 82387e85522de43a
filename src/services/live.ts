/**
 * The live WebSocket `/api/vehicle/live`: positions and alarms of the vehicles the signed-in member
 * may see. Browsers cannot set a header on a WebSocket, so the token travels as a subprotocol
 * beside the server's name `fleetstar` (never in the address, where logs would keep it). One client
 * for every page: reconnects after a drop with a growing delay, reconnects at once with the new
 * scope when the server says the scope changed (4409), and stops when the session ended (4401),
 * which the console then treats as a 401.
 */

import { apiBase, type PageLocation } from './http/baseUrl';
import { sessionEnded } from './http/sessionEnd';
import { LIVE_CLOSE, type LiveMessage } from '../../schemas/kit/monitor';

export type { LivePosition, LiveRaisedAlarm, LiveMessage } from '../../schemas/kit/monitor';

/** The subprotocol the live route selects; the token travels as the second one, never in the URL. */
export const LIVE_SUBPROTOCOL = 'fleetstar';

export interface LiveConnection {
  close(): void;
}

export interface LiveHandlers {
  onMessage(m: LiveMessage): void;
  /** Connected or not; `again` is true when this connection follows a drop (something may have been missed). */
  onState?(connected: boolean, again: boolean): void;
}

/** `GET /api/vehicle/live` as a WebSocket URL on this page's origin. */
export function liveUrl(location: PageLocation = window.location): string {
  const u = new URL(`${apiBase(location).replace(/\/$/, '')}/vehicle/live`, location.origin);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  return u.toString();
}

/** Reconnect after a drop: 1 s, doubling, at most 30 s. */
export const reconnectDelay = (attempt: number): number => Math.min(30_000, 1000 * 2 ** Math.max(0, attempt));

/** Opens the live stream with the session's token of the moment (`token()`), until closed. */
export function openLive(token: () => string | null, handlers: LiveHandlers): LiveConnection {
  let socket: WebSocket | null = null;
  let closed = false;
  let attempt = 0;
  let dropped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const connect = () => {
    const t = token();
    if (!t || closed) return;
    socket = new WebSocket(liveUrl(), [LIVE_SUBPROTOCOL, t]);
    socket.onopen = () => {
      attempt = 0;
      handlers.onState?.(true, dropped);
    };
    socket.onmessage = (e) => {
      try {
        handlers.onMessage(JSON.parse(String(e.data)) as LiveMessage);
      } catch {
        /* not JSON: ignored */
      }
    };
    socket.onclose = (e: CloseEvent) => {
      handlers.onState?.(false, false);
      if (closed) return;
      dropped = true;
      if (e.code === LIVE_CLOSE.sessionEnded.code) {
        closed = true;
        sessionEnded();
        return;
      }
      const wait = e.code === LIVE_CLOSE.scopeChanged.code ? 0 : reconnectDelay(attempt++);
      timer = setTimeout(connect, wait);
    };
  };
  connect();
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      socket?.close();
    },
  };
}
