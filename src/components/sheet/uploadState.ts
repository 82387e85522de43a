import type { SheetReport } from './report';

/**
 * The import (or renewal) dialog, step by step: choose a file → the server checks every row
 * (nothing stored) → the rows with errors, or "N rows valid" and a confirm → stored. A check or a
 * store under way can be cancelled: back to choosing, with a notice that nothing was stored.
 */
export type UploadState =
  | { phase: 'choose'; problem?: string; notice?: string }
  | { phase: 'checking'; file: File }
  | { phase: 'invalid'; file: File; report: SheetReport }
  | { phase: 'valid'; file: File; report: SheetReport }
  | { phase: 'applying'; file: File; report: SheetReport }
  | { phase: 'failed'; file?: File; message: string };

export type UploadEvent =
  | { type: 'refused'; problem: string }
  | { type: 'chosen'; file: File }
  | { type: 'checked'; report: SheetReport }
  | { type: 'failed'; message: string }
  | { type: 'apply' }
  | { type: 'cancelled'; notice: string }
  | { type: 'reset' };

export const initialUpload: UploadState = { phase: 'choose' };

/** The next state; an event that makes no sense in a state (a stale answer, a double click) changes nothing. */
export function uploadStep(s: UploadState, e: UploadEvent): UploadState {
  switch (e.type) {
    case 'reset':
      return initialUpload;
    case 'refused':
      return s.phase === 'checking' || s.phase === 'applying' ? s : { phase: 'choose', problem: e.problem };
    case 'chosen':
      return s.phase === 'checking' || s.phase === 'applying' ? s : { phase: 'checking', file: e.file };
    case 'checked':
      // An answer of the check, or a refused apply (the rows changed meanwhile): the report decides.
      if (s.phase !== 'checking' && s.phase !== 'applying') return s;
      return e.report.success && s.phase === 'checking'
        ? { phase: 'valid', file: s.file, report: e.report }
        : { phase: 'invalid', file: s.file, report: e.report };
    case 'failed':
      return s.phase === 'checking' || s.phase === 'applying' ? { phase: 'failed', file: s.file, message: e.message } : s;
    case 'apply':
      return s.phase === 'valid' ? { phase: 'applying', file: s.file, report: s.report } : s;
    case 'cancelled':
      return s.phase === 'checking' || s.phase === 'applying' ? { phase: 'choose', notice: e.notice } : s;
  }
}
