/**
 * Text a spreadsheet program would run as a formula (OWASP, CSV injection): starting with `=`, `+`,
 * `-` or `@`, also after leading blanks or control characters (programs and CSV importers trim
 * them), or starting with a tab or carriage return. An xlsx text cell itself is never evaluated,
 * but it is once re-edited, pasted or saved as CSV.
 */
// eslint-disable-next-line no-control-regex -- control characters are part of what is looked for
const FORMULA_LIKE = /^(?:[\t\r]|[\s\x00-\x1f]*[=+\-@])/;

/**
 * Whether `s` is written with a leading apostrophe: formula-like text, and text that already
 * starts with an apostrophe before such text (so that removing one on import gives `s` back).
 */
const needsApostrophe = (s: string): boolean => FORMULA_LIKE.test(s) || (s.startsWith("'") && needsApostrophe(s.slice(1)));

/** Text as written to any xlsx of ours: formula-like text gets a leading apostrophe (OWASP's advice). */
export const neutralise = (s: string) => (needsApostrophe(s) ? `'${s}` : s);

/** Text as read from a cell: the apostrophe `neutralise` added, removed again. */
export const unneutralise = (s: string) => (s.startsWith("'") && needsApostrophe(s.slice(1)) ? s.slice(1) : s);
