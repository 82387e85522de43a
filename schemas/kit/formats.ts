import { LOGIN_PASSWORD, passwordViolations } from './password';

/**
 * Custom string formats of SPEC.md §5. One table so ajv (server and console) and any
 * hand-written check use the same definitions.
 */
export const customFormats = {
  /** 3–4 digit prefix followed by 8 digits: 11–12 digits in all. */
  phone: /^\d{3,4}\d{8}$/,
  /** Login and account passwords: 6–20 letters, digits, underscore or symbols. */
  'login-password': LOGIN_PASSWORD,
  /** The change-dialog rules (length 6–16, letter and digit, no runs of three). */
  'strong-password': (value: string) => passwordViolations(value).length === 0,
  /** External links: http(s), mailto or tel. */
  'external-link': /^(https?:|mailto:|tel:)/,
} as const;

export type CustomFormat = keyof typeof customFormats;

export function checkFormat(format: CustomFormat, value: string): boolean {
  const f = customFormats[format];
  return typeof f === 'function' ? f(value) : f.test(value);
}
