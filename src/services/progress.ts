import { call } from './http/call';

/** How far an export or import has come (`GET /api/vehicle/progress/{id}`). */
export interface RowProgress {
  /** read: the file is parsed; check: rows validated; write: rows written to the file; store: rows stored. */
  phase: 'read' | 'check' | 'write' | 'store';
  done: number;
  total: number | null;
  /** waiting: the server has not begun it yet (the request is still on its way). */
  state: 'waiting' | 'running' | 'done' | 'cancelled' | 'failed';
}

/**
 * A fresh progress id: 128 random bits as hex. getRandomValues, unlike randomUUID, also works on a
 * console reached over plain HTTP inside a company network.
 */
export function newProgressId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Quiet: a progress read that fails (another server process, a network fault) just shows no rows. */
export const readProgress = (id: string) =>
  call<RowProgress>(`/vehicle/progress/${id}`, { method: 'GET', quiet: true, skipErrorHandler: true });

/** Cancels it; answers its state afterwards (`done`: it finished first). */
export const cancelProgress = (id: string) =>
  call<RowProgress>(`/vehicle/progress/${id}`, { method: 'DELETE', quiet: true, skipErrorHandler: true });
