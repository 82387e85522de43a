import type { Translate } from '../../../schemas/kit/i18n';

/** What the console shows for a failed call (SPEC.md §8). */
export type FailureFeedback =
  | { kind: 'logoutConfirm'; title: string; content: string; okText: string; cancelText: string }
  | { kind: 'message'; level: 'error'; text: string; seconds: number }
  | { kind: 'notification'; level: 'warning'; text: string; seconds: number }
  | { kind: 'none' };

export interface Failure {
  /** HTTP status; undefined when no response came. */
  status?: number;
  /** The parsed (or raw text) body. */
  data?: unknown;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

/** Server message, else its `error.message`, else the raw body as text (SPEC.md §8, 400 and 406). */
export function serverMessage(data: unknown): string | undefined {
  if (data && typeof data === 'object') {
    const body = data as { message?: unknown; error?: { message?: unknown } };
    return text(body.message) ?? text(body.error?.message);
  }
  return text(data);
}

export function describeFailure(f: Failure, t: Translate): FailureFeedback {
  switch (f.status) {
    case 401:
      return {
        kind: 'logoutConfirm',
        title: t('http.logoutTitle'),
        content: t('http.logoutContent'),
        okText: t('http.relogin'),
        cancelText: t('http.cancel'),
      };
    case 403:
      return { kind: 'message', level: 'error', text: t('http.forbidden'), seconds: 5 };
    case 400:
      return { kind: 'message', level: 'error', text: serverMessage(f.data) ?? t('http.badRequest'), seconds: 5 };
    case 406:
      return { kind: 'message', level: 'error', text: serverMessage(f.data) ?? t('http.notAcceptable'), seconds: 5 };
    case 500:
      return { kind: 'notification', level: 'warning', text: serverMessage(f.data) ?? t('http.serverError'), seconds: 3 };
    default:
      // Other statuses and no response: the promise rejects with 'error' and nothing is shown.
      return { kind: 'none' };
  }
}

/**
 * Success toasts of SPEC.md §8 by status: 201 added, 204 deleted; none for a call marked quiet
 * (one that created or deleted nothing the user asked for, or that says its own result).
 */
export function successText(status: number, t: Translate, quiet = false): string | undefined {
  if (quiet) return undefined;
  if (status === 201) return t('http.created');
  if (status === 204) return t('http.deleted');
  return undefined;
}
