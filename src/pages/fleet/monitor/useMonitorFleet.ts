import { useCallback, useEffect, useRef, useState } from 'react';
import { openLive } from '../../../services/live';
import { queryMonitor } from '../../../services/monitor';
import { getToken } from '../../../session/session';
import { applyPositions, fleetOf, mergeChanges, type Fleet } from './monitorModel';

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
    let conn: { close(): void } | null = null;
    void load().then(() => {
      if (stopped.current) return;
      conn = openLive(getToken, {
        onMessage: (m) => {
          if (m.type === 'positions') setFleet((f) => (f ? applyPositions(f, m.items) : f));
          // A raised alarm makes its vehicle alarming: the list's changes say so (the server's one definition).
          if (m.type === 'alarm' && asOf.current) void load(asOf.current);
        },
        onState: (connected, again) => {
          if (!connected) return setLive('reconnecting');
          // A reconnect: what moved while the socket was down comes from the list (only what changed).
          if (again) void load(asOf.current);
          setLive('live');
        },
      });
    });
    return () => {
      stopped.current = true;
      conn?.close();
    };
  }, [load]);

  return { fleet, live, failed };
}
