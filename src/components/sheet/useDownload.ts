import { useCallback, useEffect, useRef, useState } from 'react';
import type { DownloadWatch } from '../../services/sheet';
import type { RowProgress } from '../../services/progress';
import { saveBlob } from '../../utils/saveBlob';
import { useRowProgress } from './useRowProgress';

export interface DownloadProgress {
  loaded: number;
  /** Bytes in all, when the server says (a streamed export does not). */
  total: number | null;
}

export interface Download {
  /** Under way: its progress so far; null when idle. */
  progress: DownloadProgress | null;
  /** Rows the server has written so far, out of all, once it has said. */
  rows: RowProgress | null;
  /** Resolves true once the file is saved (false: cancelled or failed). */
  start(fetch: (watch: DownloadWatch) => Promise<Blob>, fileName: () => string): Promise<boolean>;
  cancel(): void;
}

/**
 * One download at a time with its progress (bytes received, and the rows the server has written
 * under the download's progress id) and a cancel: cancelling aborts the request (the server
 * stops writing when the connection closes) and saves nothing. Failures have been shown by the call.
 */
export function useDownload(): Download {
  const [progress, setProgress] = useState<DownloadProgress | null>(null);
  const controller = useRef<AbortController | null>(null);
  const watchRows = useRowProgress();
  // Aborting is enough: the server stops writing once the connection closes.
  const cancel = useCallback(() => controller.current?.abort(), []);
  useEffect(() => cancel, [cancel]);
  const start = useCallback(
    async (fetch: (watch: DownloadWatch) => Promise<Blob>, fileName: () => string) => {
      const c = new AbortController();
      controller.current = c;
      const id = watchRows.begin();
      setProgress({ loaded: 0, total: null });
      try {
        const blob = await fetch({ signal: c.signal, progressId: id, onProgress: (p) => !c.signal.aborted && setProgress(p) });
        if (c.signal.aborted) return false;
        saveBlob(blob, fileName());
        return true;
      } catch {
        // Cancelled, or shown by downloadSheet (SPEC §8).
        return false;
      } finally {
        if (controller.current === c) controller.current = null;
        watchRows.stop();
        setProgress(null);
      }
    },
    [watchRows],
  );
  return { progress, rows: watchRows.rows, start, cancel };
}
