/**
 * The live WebSocket `/api/vehicle/live`: positions and alarms of the vehicles the signed-in member
 * may see. Browsers cannot set a header on a WebSocket, so the token travels as a subprotocol
 * beside the server's name `fleetstar` (never in the address, where logs would keep it).
 */

import { apiBase } from './http/baseUrl';
import type { LiveMessage } from '../../schemas/kit/monitor';

export type { LivePosition, LiveRaisedAlarm, LiveMessage } from '../../schemas/kit/monitor';

export interface LiveConnection {
  close(): void;
}

const RETRY_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

/** The WebSocket address of the API base (http → ws, https → wss). */
export function liveUrl(location: { hostname: string; origin: string }): string {
  const base = apiBase(location);
  const absolute = /^https?:/.test(base) ? base : location.origin + base;
  return absolute.replace(/^http/, 'ws') + '/vehicle/live';
}

/** Opens the live stream; reconnects with backoff until closed. `onState` tells whether it is connected. */
export function openLive(token: string, onMessage: (m: LiveMessage) => void, onState?: (connected: boolean) => void): LiveConnection {
  let socket: WebSocket | null = null;
  let closed = false;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const connect = () => {
    socket = new WebSocket(liveUrl(window.location), ['fleetstar', token]);
    socket.onopen = () => {
      attempt = 0;
      onState?.(true);
    };
    socket.onmessage = (e) => {
      try {
        onMessage(JSON.parse(String(e.data)) as LiveMessage);
      } catch {
        /* not JSON: ignored */
      }
    };
    socket.onclose = () => {
      onState?.(false);
      if (closed) return;
      timer = setTimeout(connect, RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)]);
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
