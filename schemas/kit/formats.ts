import { LOGIN_PASSWORD, passwordViolations } from './password';
import { isLicencePlate, VIN } from './vehicleCodes';

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
  /** A mobile (11 digits from 1), a landline with its area code (025-88880005, 02168880001, extension after -), or a 400/800 number. */
  'contact-phone': /^(?:1\d{10}|0\d{2,3}-?\d{7,8}(?:-\d{1,6})?|[48]00-?\d{3}-?\d{4})$/,
  /** A Chinese licence plate of any kind, or a foreign one behind the documented escape (kit/vehicleCodes.ts). */
  'licence-plate': isLicencePlate,
  /** A vehicle identification number: 17 signs without I, O or Q. */
  vin: VIN,
  /**
   * A driving licence number: 5–32 letters, digits or hyphens with at least one digit. Chinese
   * licences carry the 18-sign identity number, other countries' their own shapes, so the check
   * refuses what is no licence number (a word, a name) without assuming one country's layout.
   */
  'licence-number': /^(?=[^0-9]*[0-9])[A-Za-z0-9][A-Za-z0-9-]{4,31}$/,
  /** Codes people type and compare (organisation, terminal, SIM…): letters, digits, `_`, `-`, `.`. */
  'plain-code': /^[A-Za-z0-9_.-]+$/,
} as const;

export type CustomFormat = keyof typeof customFormats;

export function checkFormat(format: CustomFormat, value: string): boolean {
  const f = customFormats[format];
  return typeof f === 'function' ? f(value) : f.test(value);
}
