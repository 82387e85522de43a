import { passwordStrength, passwordViolations } from '../../schemas/kit/password';
import { checkFormat } from '../../schemas/kit/formats';

describe('change-dialog password rules (SPEC §5)', () => {
  it.each([
    ['abc', ['length', 'letterAndDigit', 'sequentialLetters']],
    ['a1b2c3d4e5f6g7h8x', ['length']],
    ['abcdef', ['letterAndDigit', 'sequentialLetters']],
    ['Zq111x9', ['repeatedDigits']],
    ['Zqaaax9', ['repeatedLetters']],
    ['Zq123x9', ['sequentialDigits']],
    ['Zq321x9', ['sequentialDigits']],
    ['Zxyz7q9', ['sequentialLetters']],
    ['ZYXq7w9', ['sequentialLetters']],
    ['Fleet7Star9', []],
  ])('%s breaks %j', (pw, expected) => {
    expect(passwordViolations(pw)).toEqual(expected);
  });

  it('runs of three are case-insensitive for letters', () => {
    expect(passwordViolations('aAa9q8w7')).toContain('repeatedLetters');
    expect(passwordViolations('aBc9q8w7')).toContain('sequentialLetters');
  });

  it('grades weak, medium and strong', () => {
    expect(passwordStrength('aaa')).toBe('weak');
    expect(passwordStrength('fleet7star')).toBe('medium');
    expect(passwordStrength('Fleet7q9')).toBe('medium');
    expect(passwordStrength('Fleet7Star9!')).toBe('strong');
  });
});

describe('custom formats', () => {
  it('phone: 3–4 digits then 8 digits', () => {
    expect(checkFormat('phone', '13800138000')).toBe(true);
    expect(checkFormat('phone', '075512345678')).toBe(true);
    expect(checkFormat('phone', '1380013800')).toBe(false);
    expect(checkFormat('phone', '1380013800012')).toBe(false);
    expect(checkFormat('phone', '138-0013-8000')).toBe(false);
  });
  it('login password: 6–20 printable, no spaces', () => {
    expect(checkFormat('login-password', 'abc_12')).toBe(true);
    expect(checkFormat('login-password', 'a!@#$%^&*()_+{}|:"<>?'.slice(0, 20))).toBe(true);
    expect(checkFormat('login-password', 'abc12')).toBe(false);
    expect(checkFormat('login-password', 'abc 123')).toBe(false);
    expect(checkFormat('login-password', 'x'.repeat(21))).toBe(false);
  });
  it('external link', () => {
    for (const ok of ['http://a', 'https://b.cn/x', 'mailto:a@b.c', 'tel:123']) expect(checkFormat('external-link', ok)).toBe(true);
    for (const bad of ['ftp://a', 'javascript:alert(1)', '/relative']) expect(checkFormat('external-link', bad)).toBe(false);
  });
});
