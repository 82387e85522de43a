import { renderFieldError, type FieldError } from '../../../schemas/kit/errors';
import type { MessageParams, Translate } from '../../../schemas/kit/i18n';

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

/**
 * A unique set broken (406 "<labels>已存在", or the message `key` names with the same `{fields}`);
 * `labelKeys` are the catalogue keys of `fields`.
 */
export function duplicate(fields: string[], labelKeys: string[], key = 'error.duplicate'): AppError {
  // Each field's own message names that field: "驾驶证号已存在", never a raw "{fields}".
  const fes = fields.map((field, i) => ({
    field,
    key,
    params: {},
    labelKey: labelKeys[i],
    ...(labelKeys[i] ? { labelParams: { fields: labelKeys[i] } } : {}),
  }));
  return new AppError(406, key, {}, fes, { fields: labelKeys.length ? labelKeys : ['common.fields.id'] });
}

/** A relation pointing at a row that does not exist or that the caller cannot see. */
export const refNotFound = (field: string, labelPrefix: string): FieldError => ({
  field,
  key: 'validation.refNotFound',
  params: {},
  labelKey: `${labelPrefix}.${field}`,
});

export interface ErrorBody {
  success: false;
  code: string;
  message: string;
  errors?: Array<{ field: string; key: string; message: string }>;
}

/** The body every failure answers with, in one language (the server's and the mock's alike). */
export function errorBody(e: AppError, t: Translate): ErrorBody {
  const lists: Record<string, string> = {};
  for (const [name, keys] of Object.entries(e.labelLists)) lists[name] = keys.map((k) => t(k)).join('、');
  const params = { ...e.params, ...lists };
  // A field's message may name the list too (a unique set: "{fields}已存在").
  const errors = e.fieldErrors.map((fe) => ({
    field: fe.field,
    key: fe.key,
    message: renderFieldError({ ...fe, params: { ...lists, ...fe.params } }, t),
  }));
  const message = e.fieldErrors.length && e.status === 400 ? errors[0].message : t(e.key, params);
  return { success: false, code: e.key, message, ...(errors.length ? { errors } : {}) };
}
