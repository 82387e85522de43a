/**
 * Password rules of SPEC.md §5, shared by the console (live strength meter, form validation)
 * and the server (register, change, reset).
 */

/** Login and account-form passwords: 6–20 printable characters (letters, digits, `_`, symbols). */
export const LOGIN_PASSWORD = /^[\x21-\x7e]{6,20}$/;

export type PasswordRule = 'length' | 'letterAndDigit' | 'repeatedDigits' | 'repeatedLetters' | 'sequentialDigits' | 'sequentialLetters';

/** Every rule the change-password dialog lists, in display order. */
export const PASSWORD_RULES: readonly PasswordRule[] = [
  'length',
  'letterAndDigit',
  'repeatedDigits',
  'repeatedLetters',
  'sequentialDigits',
  'sequentialLetters',
];

const isDigit = (c: string) => c >= '0' && c <= '9';
const isLetter = (c: string) => /^[A-Za-z]$/.test(c);

/** Runs of three: identical (aaa, 111) or consecutive up or down (abc, cba, 123, 321). */
function hasRun(pw: string, kind: (c: string) => boolean, step: 0 | 1): boolean {
  for (let i = 0; i + 2 < pw.length; i++) {
    const [a, b, c] = [pw[i], pw[i + 1], pw[i + 2]];
    if (!kind(a) || !kind(b) || !kind(c)) continue;
    const x = a.toLowerCase().charCodeAt(0);
    const y = b.toLowerCase().charCodeAt(0);
    const z = c.toLowerCase().charCodeAt(0);
    if (step === 0 && x === y && y === z) return true;
    if (step === 1 && ((y - x === 1 && z - y === 1) || (x - y === 1 && y - z === 1))) return true;
  }
  return false;
}

/** The rules a candidate password breaks (empty when it is acceptable). */
export function passwordViolations(pw: string): PasswordRule[] {
  const broken: PasswordRule[] = [];
  if (pw.length < 6 || pw.length > 16 || !LOGIN_PASSWORD.test(pw)) broken.push('length');
  if (!/[A-Za-z]/.test(pw) || !/\d/.test(pw)) broken.push('letterAndDigit');
  if (hasRun(pw, isDigit, 0)) broken.push('repeatedDigits');
  if (hasRun(pw, isLetter, 0)) broken.push('repeatedLetters');
  if (hasRun(pw, isDigit, 1)) broken.push('sequentialDigits');
  if (hasRun(pw, isLetter, 1)) broken.push('sequentialLetters');
  return broken;
}

export type PasswordStrength = 'weak' | 'medium' | 'strong';

/**
 * weak: breaks a rule; medium: passes with letters and digits only, or under 10 characters;
 * strong: passes, at least 10 characters and three kinds of characters (lower, upper, digit, symbol).
 */
export function passwordStrength(pw: string): PasswordStrength {
  if (passwordViolations(pw).length > 0) return 'weak';
  const kinds = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(pw)).length;
  return kinds >= 3 && pw.length >= 10 ? 'strong' : 'medium';
}
