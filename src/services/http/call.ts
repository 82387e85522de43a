import { request, type AxiosError } from '@umijs/max';
import type { CallOptions } from './headers';

/** One API call's options: method, body, query and the console's own (authority, quiet…). */
export type Call = CallOptions & {
  method: string;
  data?: unknown;
  params?: Record<string, unknown>;
  responseType?: 'blob';
  /** Cancels the call (a download the user stopped). */
  signal?: AbortSignal;
  /** Bytes received so far, and the total when the server says it (axios's own option). */
  onDownloadProgress?: (e: { loaded: number; total?: number }) => void;
};

/**
 * The one place the console calls `request` (base address, headers and SPEC.md §8 feedback come
 * from the request config): every page and component calls the typed functions of src/services.
 */
export const call = <T>(url: string, opts: Call): Promise<T> => request<T>(url, opts);

/** A failed download's body is a blob too: read it back as JSON (undefined when it is not). */
export async function readBlobFailure(error: unknown): Promise<AxiosError['response']> {
  const response = (error as AxiosError).response;
  if (response && typeof Blob !== 'undefined' && response.data instanceof Blob) {
    try {
      response.data = JSON.parse(await response.data.text());
    } catch {
      response.data = undefined;
    }
  }
  return response;
}
