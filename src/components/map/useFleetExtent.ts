import { useEffect, useState } from 'react';
import { queryMonitor } from '../../services/monitor';
import { fleetExtent, type Extent } from './fleetExtent';

/**
 * The caller's fleet's extent (monitor/query), asked once when the component mounts; null while
 * unknown, when no vehicle has a position, or when the call failed (the map then stays on China).
 */
export function useFleetExtent(): Extent | null {
  const [extent, setExtent] = useState<Extent | null>(null);
  useEffect(() => {
    let live = true;
    queryMonitor().then(
      (answer) => live && setExtent(fleetExtent(answer.data)),
      () => undefined, // the request config showed the failure
    );
    return () => {
      live = false;
    };
  }, []);
  return extent;
}
