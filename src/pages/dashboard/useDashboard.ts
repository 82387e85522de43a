import { useCallback, useEffect, useRef, useState } from 'react';
import { queryAlarms, type AlarmRow } from '../../services/alarms';
import { openLive, type LiveMessage } from '../../services/live';
import {
  ledgerHome,
  ledgerTop7,
  vehicleCount,
  vehicleDistribution,
  type LedgerHome,
  type LedgerVehicleRow,
  type VehicleCounts,
  type VehicleDistribution,
} from '../../services/reports';
import { getToken } from '../../session/session';

/** How often at most the counts are re-read while the live stream reports changes. */
export const COUNTS_REFRESH_MS = 5_000;
export const RECENT_ALARMS = 8;
/**
 * How often at most the ledger figures are re-read while positions arrive: today's already count
 * the trips still under way (the derivation rebuilds them as reports come in), so a dashboard left
 * open follows the fleet's driving instead of the figures of the moment it was opened.
 */
export const LEDGER_REFRESH_MS = 30_000;

export interface Loaded<T> {
  data: T | null;
  loading: boolean;
}

const pending = <T>(): Loaded<T> => ({ data: null, loading: true });

function useLoad<T>(load: () => Promise<T>, deps: unknown[]): [Loaded<T>, () => void] {
  const [state, setState] = useState<Loaded<T>>(pending);
  const seq = useRef(0);
  const reload = useCallback(() => {
    const n = ++seq.current;
    setState((s) => ({ ...s, loading: s.data === null }));
    load().then(
      (data) => n === seq.current && setState({ data, loading: false }),
      () => n === seq.current && setState((s) => ({ ...s, loading: false })),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- deps are the caller's
  }, deps);
  useEffect(reload, [reload]);
  return [state, reload];
}

export interface Dashboard {
  counts: Loaded<VehicleCounts>;
  distribution: Loaded<VehicleDistribution>;
  home: Loaded<LedgerHome>;
  top7: Loaded<LedgerVehicleRow[]>;
  top7By: 'mileage' | 'fuel';
  setTop7By(by: 'mileage' | 'fuel'): void;
  alarms: Loaded<AlarmRow[]>;
  /** The live stream is connected. */
  live: boolean;
}

/**
 * The dashboard's data: the counts, distribution, ledger figures, Top7 of this month and the
 * latest alarms. The live stream keeps the counts current (re-read at most every few seconds while
 * positions arrive) and the ledger figures too (at most every LEDGER_REFRESH_MS), and puts each new
 * alarm at the top of the list.
 */
export function useDashboard(): Dashboard {
  const [counts, reloadCounts] = useLoad(() => vehicleCount(), []);
  const [distribution] = useLoad(() => vehicleDistribution(), []);
  const [home, reloadHome] = useLoad(() => ledgerHome(), []);
  const [top7By, setTop7By] = useState<'mileage' | 'fuel'>('mileage');
  const [top7] = useLoad(() => {
    const end = localDay(new Date());
    return ledgerTop7({ begin: `${end.slice(0, 8)}01`, end }, top7By);
  }, [top7By]);
  const [alarms, reloadAlarms] = useLoad(
    () =>
      queryAlarms({ criteria: {}, order: { property: 'begin', direction: 'DESC' }, pageIndex: 1, pageSize: RECENT_ALARMS }).then(
        (p) => p.data,
      ),
    [],
  );
  const [live, setLive] = useState(false);

  useEffect(() => {
    if (!getToken()) return;
    let countsDue: ReturnType<typeof setTimeout> | undefined;
    let alarmsDue: ReturnType<typeof setTimeout> | undefined;
    let homeDue: ReturnType<typeof setTimeout> | undefined;
    const later = (timer: ReturnType<typeof setTimeout> | undefined, run: () => void, ms = COUNTS_REFRESH_MS) =>
      timer ?? setTimeout(run, ms);
    const onMessage = (m: LiveMessage) => {
      if (m.type === 'positions' || m.type === 'alarms' || m.type === 'alarm') {
        countsDue = later(countsDue, () => {
          countsDue = undefined;
          reloadCounts();
        });
      }
      if (m.type === 'positions') {
        homeDue = later(
          homeDue,
          () => {
            homeDue = undefined;
            reloadHome();
          },
          LEDGER_REFRESH_MS,
        );
      }
      if (m.type === 'alarm') {
        alarmsDue = later(alarmsDue, () => {
          alarmsDue = undefined;
          reloadAlarms();
        });
      }
    };
    const conn = openLive(getToken, { onMessage, onState: setLive });
    return () => {
      conn.close();
      clearTimeout(countsDue);
      clearTimeout(alarmsDue);
      clearTimeout(homeDue);
    };
  }, [reloadCounts, reloadAlarms, reloadHome]);

  return { counts, distribution, home, top7, top7By, setTop7By, alarms, live };
}

/** The browser's local day, 'YYYY-MM-DD' (the fleet's day for the demo's users). */
export function localDay(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
