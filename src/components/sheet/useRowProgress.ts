import { useCallback, useEffect, useRef, useState } from 'react';
import { newProgressId, readProgress, type RowProgress } from '../../services/progress';

/** Time between two progress reads; one read at a time (a slow answer delays the next). */
const POLL_MS = 400;

export interface RowProgressWatch {
  /** The rows so far of the request under way, once the server has said. */
  rows: RowProgress | null;
  /** A new id, followed until `stop`. */
  begin(): string;
  stop(): void;
}

/** Follows the server's rows-so-far of one export or import at a time while it runs. */
export function useRowProgress(): RowProgressWatch {
  const [rows, setRows] = useState<RowProgress | null>(null);
  const current = useRef<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const stop = useCallback(() => {
    current.current = null;
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    setRows(null);
  }, []);
  useEffect(() => stop, [stop]);

  const begin = useCallback(() => {
    const id = newProgressId();
    current.current = id;
    setRows(null);
    const poll = async () => {
      try {
        const p = await readProgress(id);
        // Waiting: the request has not reached the server yet, so there are no rows to show.
        if (current.current === id && p.state !== 'waiting') setRows(p);
      } catch {
        // A network fault or another server process: keep what is shown.
      }
      if (current.current === id) timer.current = setTimeout(() => void poll(), POLL_MS);
    };
    timer.current = setTimeout(() => void poll(), POLL_MS);
    return id;
  }, []);

  return { rows, begin, stop };
}
