import { useCallback, useEffect, useRef, useState } from 'react';
import type { AlarmCategory, AlarmCriteria, AlarmRow } from '../../services/alarms';
import { queryAlarms } from '../../services/alarms';

export type AlarmView = 'current' | 'history';

export interface AlarmFilters {
  /** One alarm only (followed from the one it superseded). */
  id: number | null;
  type: string | null;
  status: 'open' | 'closed' | null;
  handled: boolean | null;
  vehicleId: number | null;
  orgId: number | null;
  /** Local days, inclusive. */
  begin: string | null;
  end: string | null;
}

export const NO_FILTERS: AlarmFilters = {
  id: null,
  type: null,
  status: null,
  handled: null,
  vehicleId: null,
  orgId: null,
  begin: null,
  end: null,
};

/** The list's criteria: the category of the page, current (open or unhandled) or every alarm, the filters. */
export function alarmCriteria(category: AlarmCategory | null, view: AlarmView, f: AlarmFilters): AlarmCriteria {
  return {
    category,
    current: view === 'current' ? true : null,
    id: f.id,
    type: f.type,
    status: f.status,
    handled: f.handled,
    vehicleId: f.vehicleId,
    orgId: f.orgId,
    begin: f.begin ? new Date(`${f.begin}T00:00:00`).toISOString() : null,
    end: f.end ? new Date(new Date(`${f.end}T00:00:00`).getTime() + 86_400_000).toISOString() : null,
  };
}

export interface AlarmList {
  rows: AlarmRow[];
  total: number;
  loading: boolean;
  page: { index: number; size: number };
  setPage(index: number, size: number): void;
  reload(): void;
  criteria: AlarmCriteria;
}

/** One page of alarms for the criteria, latest first; back to page 1 when the criteria change. */
export function useAlarmList(category: AlarmCategory | null, view: AlarmView, filters: AlarmFilters): AlarmList {
  const criteria = alarmCriteria(category, view, filters);
  const key = JSON.stringify(criteria);
  const [page, setPageState] = useState({ index: 1, size: 20 });
  const [state, setState] = useState<{ rows: AlarmRow[]; total: number; loading: boolean }>({ rows: [], total: 0, loading: true });
  const [tick, setTick] = useState(0);
  const seq = useRef(0);
  useEffect(() => setPageState((p) => ({ ...p, index: 1 })), [key]);
  useEffect(() => {
    const n = ++seq.current;
    setState((s) => ({ ...s, loading: true }));
    queryAlarms({
      criteria: JSON.parse(key) as AlarmCriteria,
      order: { property: 'begin', direction: 'DESC' },
      pageIndex: page.index,
      pageSize: page.size,
    }).then(
      (p) => n === seq.current && setState({ rows: p.data, total: p.total, loading: false }),
      () => n === seq.current && setState((s) => ({ ...s, loading: false })),
    );
  }, [key, page, tick]);
  const setPage = useCallback((index: number, size: number) => setPageState({ index, size }), []);
  const reload = useCallback(() => setTick((x) => x + 1), []);
  return { ...state, page, setPage, reload, criteria };
}
