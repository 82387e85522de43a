import { request, type AxiosResponse } from '@umijs/max';
import { reportFailure } from '../../services/http/config';
import type { SheetCall } from './sheetCalls';
import type { SheetReport } from './report';

/**
 * The spreadsheet calls of SPEC §9. Downloads come back as blobs; uploads send the file as
 * multipart form data. Each sends the permission code of its route as X-Authority.
 */

/** A failed download's body is a blob too: read it back as JSON so the §8 toast shows the server's words. */
async function reportBlobFailure(error: unknown): Promise<void> {
  const response = (error as { response?: AxiosResponse }).response;
  if (response?.data instanceof Blob) {
    try {
      response.data = JSON.parse(await response.data.text());
    } catch {
      response.data = undefined;
    }
  }
  reportFailure(error);
}

/** Downloads a spreadsheet; a failure is shown as SPEC §8 says and rethrown. */
export async function downloadSheet(call: SheetCall, body?: unknown): Promise<Blob> {
  try {
    return await request<Blob>(call.url, { method: call.method, data: body, responseType: 'blob', authority: call.authority, skipErrorHandler: true });
  } catch (e) {
    await reportBlobFailure(e);
    throw e;
  }
}

/** Uploads one xlsx to a validate or apply route; the caller shows failures (inside its dialog). */
export function uploadSheet<T = SheetReport>(call: SheetCall, file: Blob, name: string): Promise<T> {
  const data = new FormData();
  data.append('file', file, name);
  // quiet: the dialog shows the server's own "N rows imported" instead of the generic 201 toast.
  return request<T>(call.url, { method: call.method, data, authority: call.authority, quiet: true, skipErrorHandler: true });
}

/** Hands a blob to the browser as a download with this name (no navigation, nothing kept). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // The click has started the download; the URL is no longer needed once it has been read.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
