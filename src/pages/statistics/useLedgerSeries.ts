import { useEffect, useRef, useState } from 'react';
import type { StatsCriteria } from '../../components/statistics/statsCriteria';
import {
  ledgerByDay,
  ledgerByMonth,
  ledgerByVehicle,
  type LedgerDayRow,
  type LedgerMonthRow,
  type LedgerVehicleRow,
} from '../../services/reports';
import { ledgerCriteriaOf } from './statisticsModel';

export type Grain = 'day' | 'month';

export interface LedgerSeries {
  /** Rows by day or by month, with their label. */
  periods: Array<(LedgerDayRow | LedgerMonthRow) & { label: string }> | null;
  vehicles: LedgerVehicleRow[] | null;
  loading: boolean;
}

/** The ledger of the criteria by day or month, and by vehicle (fuel and cost pages). */
export function useLedgerSeries(criteria: StatsCriteria, grain: Grain): LedgerSeries {
  const [state, setState] = useState<LedgerSeries>({ periods: null, vehicles: null, loading: true });
  const seq = useRef(0);
  useEffect(() => {
    const n = ++seq.current;
    setState((s) => ({ ...s, loading: true }));
    const c = ledgerCriteriaOf(criteria);
    const periods =
      grain === 'day'
        ? ledgerByDay(c).then((rows) => rows.map((r) => ({ ...r, label: r.date })))
        : ledgerByMonth(c).then((rows) => rows.map((r) => ({ ...r, label: r.month })));
    Promise.all([periods, ledgerByVehicle(c)]).then(
      ([p, v]) => n === seq.current && setState({ periods: p, vehicles: v, loading: false }),
      () => n === seq.current && setState((s) => ({ ...s, loading: false })),
    );
  }, [criteria, grain]);
  return state;
}
