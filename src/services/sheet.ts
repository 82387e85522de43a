import type { SheetReport as SheetAnswer } from '../../schemas/kit/sheetReport';
import type { ServerFieldError } from './http/failureOf';
import { reportFailure } from './http/config';
import { call, readBlobFailure } from './http/call';

/**
 * The spreadsheet calls of SPEC §9. Downloads come back as blobs; uploads send the file as
 * multipart form data. Each sends the permission code of its route as X-Authority.
 */

export type { RowPlan } from '../../schemas/kit/sheetReport';

/**
 * What `importValidate` / `renewValidate` answer, and `import` / `renew` with a 400: the server's
 * answer (schemas/kit/sheetReport.ts), its errors read as the console reads any field error.
 */
export interface SheetReport extends Omit<SheetAnswer, 'rows'> {
  rows: Array<{ row: number; errors: ServerFieldError[] }>;
}

/** One spreadsheet call an entity declares: where it goes and the code it needs (sent as X-Authority). */
export interface SheetCall {
  method: string;
  /** Path under the API base, e.g. `/vehicle/terminal/importValidate`. */
  url: string;
  authority: string;
}

/** How a download is followed: its progress, and a signal that cancels it. */
export interface DownloadWatch {
  signal?: AbortSignal;
  /** The server reports the rows it has written under this id (see services/progress). */
  progressId?: string;
  onProgress?: (p: { loaded: number; total: number | null }) => void;
}

/**
 * Downloads a spreadsheet; a failure is shown as SPEC §8 says (with the server's words) and
 * rethrown. A cancelled download is rethrown without a message (the user asked for it).
 */
export async function downloadSheet(sheet: SheetCall, body?: unknown, watch: DownloadWatch = {}): Promise<Blob> {
  try {
    return await call<Blob>(sheet.url, {
      method: sheet.method,
      data: body,
      responseType: 'blob',
      authority: sheet.authority,
      skipErrorHandler: true,
      signal: watch.signal,
      progressId: watch.progressId,
      onDownloadProgress: watch.onProgress && ((e) => watch.onProgress?.({ loaded: e.loaded, total: e.total || null })),
    });
  } catch (e) {
    if (watch.signal?.aborted) throw e;
    await readBlobFailure(e);
    reportFailure(e);
    throw e;
  }
}

/** How an upload is followed: the progress id the server reports its rows under, and a cancel. */
export interface UploadWatch {
  signal?: AbortSignal;
  progressId?: string;
}

/** Uploads one xlsx to a validate or apply route; the caller shows failures (inside its dialog). */
export function uploadSheet<T = SheetReport>(sheet: SheetCall, file: Blob, name: string, watch: UploadWatch = {}): Promise<T> {
  const data = new FormData();
  data.append('file', file, name);
  // quiet: the dialog shows the server's own "N rows imported" instead of the generic 201 toast.
  return call<T>(sheet.url, {
    method: sheet.method,
    data,
    authority: sheet.authority,
    quiet: true,
    skipErrorHandler: true,
    signal: watch.signal,
    progressId: watch.progressId,
  });
}
