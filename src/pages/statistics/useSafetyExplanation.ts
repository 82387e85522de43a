import { useCallback, useEffect, useRef, useState } from 'react';
import { safetyExplain, type SafetyExplanation } from '../../services/behaviour';

/** The explanation of one vehicle's score over a window; `reload` after a review. A late answer to an older ask is dropped. */
export function useSafetyExplanation(vehicleId: number | null, weeks: number) {
  const [data, setData] = useState<SafetyExplanation | null>(null);
  const [loading, setLoading] = useState(false);
  const seq = useRef(0);
  const load = useCallback(() => {
    const n = ++seq.current;
    if (vehicleId === null) {
      setData(null);
      setLoading(false);
      return;
    }
    setLoading(true);
    safetyExplain({ vehicleId, weeks }).then(
      (d) => {
        if (n !== seq.current) return;
        setData(d);
        setLoading(false);
      },
      () => n === seq.current && setLoading(false),
    );
  }, [vehicleId, weeks]);
  useEffect(load, [load]);
  return { data, loading, reload: load };
}
