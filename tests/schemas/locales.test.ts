import fs from 'node:fs';
import path from 'node:path';
import { entities, entityNames } from '../../schemas/generated/registry';
import { catalogues, translate } from '../../schemas/kit/catalogue';
import { flatten, languageFromHeader, LANGUAGES } from '../../schemas/kit/i18n';

const localesDir = path.resolve(__dirname, '../../schemas/locales');

function keysOf(file: string): string[] {
  return Object.keys(flatten(JSON.parse(fs.readFileSync(file, 'utf8')))).sort();
}

describe('message catalogues', () => {
  const files = (lang: string) =>
    fs
      .readdirSync(path.join(localesDir, lang), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.json'))
      .sort();

  it('have the same files in every language', () => {
    for (const lang of LANGUAGES) expect(files(lang)).toEqual(files('zh-CN'));
  });

  it.each(LANGUAGES.filter((l) => l !== 'zh-CN'))('%s has exactly the keys of zh-CN, none empty', (lang) => {
    for (const f of files('zh-CN')) {
      expect({ f, keys: keysOf(path.join(localesDir, lang, f)) }).toEqual({ f, keys: keysOf(path.join(localesDir, 'zh-CN', f)) });
      for (const [k, v] of Object.entries(flatten(JSON.parse(fs.readFileSync(path.join(localesDir, lang, f), 'utf8'))))) {
        expect({ k, empty: v.trim() === '' }).toEqual({ k, empty: false });
      }
    }
  });

  it('label every entity, every property and every enum value in every language', () => {
    for (const lang of LANGUAGES) {
      for (const name of entityNames) {
        const missing: string[] = [];
        const need = (key: string) => !catalogues[lang][key] && missing.push(key);
        need(`entity.${name}.title`);
        for (const [prop, p] of Object.entries(entities[name].properties)) {
          need(`entity.${name}.fields.${prop}`);
          for (const v of p.enum ?? []) if (v !== null) need(`entity.${name}.enums.${prop}.${String(v)}`);
        }
        expect({ lang, name, missing }).toEqual({ lang, name, missing: [] });
      }
    }
  });

  it("keep SPEC.md's Chinese texts word for word", () => {
    const zh = (k: string) => translate('zh-CN', k);
    expect(zh('http.created')).toBe('添加成功！');
    expect(zh('http.deleted')).toBe('删除成功！');
    expect(zh('http.forbidden')).toBe('没有权限！');
    expect(zh('http.badRequest')).toBe('参数错误！');
    expect(zh('http.notAcceptable')).toBe('业务逻辑错误！');
    expect(zh('http.serverError')).toBe('服务器错误！');
    expect(zh('http.logoutTitle')).toBe('确定登出');
    expect(zh('http.logoutContent')).toBe('你已被登出，可以取消继续留在该页面，或者重新登录');
    expect(zh('http.relogin')).toBe('重新登录');
    expect(zh('http.cancel')).toBe('取消');
    expect(zh('validation.loginPassword.required')).toBe('登录密码不能为空');
    expect(zh('validation.confirmPassword.required')).toBe('请再次输入你的登录密码');
    expect(zh('validation.confirmPassword.mismatch')).toBe('两次输入的密码不一致，请重新输入');
    expect(zh('validation.phone')).toBe('手机号格式不正确');
  });

  it('pick the language from Accept-Language, zh-CN by default', () => {
    expect(languageFromHeader(undefined)).toBe('zh-CN');
    expect(languageFromHeader('fr-FR')).toBe('zh-CN');
    expect(languageFromHeader('en')).toBe('en-US');
    expect(languageFromHeader('fr;q=1, ja;q=0.8, es;q=0.9')).toBe('es-ES');
    expect(languageFromHeader('zh-TW,zh;q=0.9')).toBe('zh-CN');
  });
});
