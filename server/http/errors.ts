import type { FieldError } from '../../schemas/kit/errors';
import type { MessageParams } from '../../schemas/kit/i18n';

/**
 * A failure the client is told about: HTTP status, message key and parameters (rendered in the
 * caller's language by the error handler), and optionally per-field errors.
 * `labelLists` are parameters whose value is a list of label keys, translated and joined.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly key: string,
    readonly params: MessageParams = {},
    readonly fieldErrors: FieldError[] = [],
    readonly labelLists: Record<string, string[]> = {},
  ) {
    super(key);
  }
}

export const notFound = () => new AppError(404, 'error.notFound');
export const unauthorized = (key = 'error.unauthorized') => new AppError(401, key);
export const forbidden = () => new AppError(403, 'http.forbidden');
export const invalid = (errors: FieldError[]) => new AppError(400, errors[0]?.key ?? 'http.badRequest', errors[0]?.params ?? {}, errors);
