import { useEffect, useRef, useState } from 'react';
import { initialCriteria, type StatsCriteria } from '../../components/statistics/statsCriteria';

export interface Report<T> {
  criteria: StatsCriteria;
  setCriteria(c: StatsCriteria): void;
  data: T | null;
  loading: boolean;
}

/** A statistics page's criteria and the answer of `load` for them; a late answer to older criteria is dropped. */
export function useReport<T>(load: (c: StatsCriteria) => Promise<T>, days: 7 | 30 | 90 = 30): Report<T> {
  const [criteria, setCriteria] = useState<StatsCriteria>(() => initialCriteria(days));
  const [data, setData] = useState<T | null>(null);
  const [loading, setLoading] = useState(true);
  const seq = useRef(0);
  useEffect(() => {
    const n = ++seq.current;
    setLoading(true);
    load(criteria).then(
      (d) => {
        if (n !== seq.current) return;
        setData(d);
        setLoading(false);
      },
      () => n === seq.current && setLoading(false),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reloads on the criteria only
  }, [criteria]);
  return { criteria, setCriteria, data, loading };
}
