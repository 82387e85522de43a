import { useEffect, useRef, useState } from 'react';

/**
 * What `load` answers for the current criteria: null while loading (a table's skeleton), the last
 * answer's value otherwise; an answer to older criteria is dropped; a failed call (shown by the
 * API layer) leaves `failed`.
 */
export function useCriteriaData<C, T>(criteria: C, load: (c: C) => Promise<T>, failed: T): T | null {
  const [data, setData] = useState<T | null>(null);
  const seq = useRef(0);
  useEffect(() => {
    const n = ++seq.current;
    setData(null);
    load(criteria).then(
      (d) => n === seq.current && setData(d),
      () => n === seq.current && setData(failed),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reloads on the criteria only
  }, [criteria]);
  return data;
}
