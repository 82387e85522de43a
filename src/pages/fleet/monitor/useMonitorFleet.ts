import { useCallback, useEffect, useRef, useState } from 'react';
import { openLive, queryMonitor, type LiveMessage } from '../../../services/monitor';
import { getToken } from '../../../session/session';
import { applyPositions, fleetOf, mergeChanges, reconnectDelay, type Fleet } from './monitorModel';

export type LiveState = 'connecting' | 'live' | 'reconnecting';

/**
 * Every vehicle in scope (monitor/query), then kept current by the live WebSocket — never by
 * polling. After a drop it reconnects with a growing delay and asks what changed since the last
 * answer (`since` its asOf; the whole list when the server says so), so nothing missed while away
 * stays stale.
 */
export function useMonitorFleet(): { fleet: Fleet | null; live: LiveState; failed: boolean } {
  const [fleet, setFleet] = useState<Fleet | null>(null);
  const [live, setLive] = useState<LiveState>('connecting');
  const [failed, setFailed] = useState(false);
  const stopped = useRef(false);
  /** The last answer's asOf: a reconnect asks only what changed after it. */
  const asOf = useRef<string | null>(null);

  const load = useCallback(async (since: string | null = null) => {
    try {
      const r = await queryMonitor(since ? { since } : {});
      if (!stopped.current) {
        setFleet((f) => (f && since && !r.full ? mergeChanges(f, r.data, r.removed) : fleetOf(r.data)));
        asOf.current = r.asOf;
        setFailed(false);
      }
    } catch {
      if (!stopped.current) setFailed(true);
    }
  }, []);

  useEffect(() => {
    stopped.current = false;
    let socket: WebSocket | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    const connect = () => {
      const token = getToken();
      if (!token || stopped.current) return;
      socket = openLive(token);
      socket.onopen = () => {
        // A reconnect: what moved while the socket was down comes from the list (only what changed).
        if (attempt > 0) void load(asOf.current);
        attempt = 0;
        setLive('live');
      };
      socket.onmessage = (e: MessageEvent<string>) => {
        let m: LiveMessage;
        try {
          m = JSON.parse(e.data) as LiveMessage;
        } catch {
          return;
        }
        if (m.type === 'positions') setFleet((f) => (f ? applyPositions(f, m.items) : f));
      };
      socket.onclose = () => {
        if (stopped.current) return;
        setLive('reconnecting');
        timer = setTimeout(connect, reconnectDelay(attempt++));
      };
    };
    void load().then(connect);
    return () => {
      stopped.current = true;
      clearTimeout(timer);
      socket?.close();
    };
  }, [load]);

  return { fleet, live, failed };
}
