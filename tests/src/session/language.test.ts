import { resolveLanguage } from '../../../src/session/language';

describe('language choice (SPEC.md §4)', () => {
  it('prefers the saved language', () => {
    expect(resolveLanguage('ja-JP', ['en-US'])).toBe('ja-JP');
  });

  it('else the first browser language it speaks', () => {
    expect(resolveLanguage(null, ['fr-FR', 'es-MX', 'en-US'])).toBe('es-ES');
    expect(resolveLanguage('xx', ['en-GB'])).toBe('en-US');
    expect(resolveLanguage(null, ['zh-TW'])).toBe('zh-CN');
  });

  it('else Chinese', () => {
    expect(resolveLanguage(null, ['fr-FR', 'de'])).toBe('zh-CN');
    expect(resolveLanguage(null, [])).toBe('zh-CN');
  });
});
