import { catalogues, translator } from '../../../../schemas/kit/catalogue';
import { LANGUAGES } from '../../../../schemas/kit/i18n';
import { ENUM_KEY_TABLES, labelOf, MEMBER_TYPE_KEYS, optionsOf, valueEnumOf } from '../../../../src/components/system/labels';
import { ACTION_KEYS } from '../../../../src/pages/system/log/actions';

// The key test finds `t('…')` literals; these tables name their keys as values, so they are checked here.
const tables: Record<string, Readonly<Record<string, string>>> = { ...ENUM_KEY_TABLES, ACTION_KEYS };

describe('labels of enumerated values', () => {
  it.each(LANGUAGES)('%s names every value of every table', (lang) => {
    const missing = Object.entries(tables).flatMap(([table, keys]) =>
      Object.values(keys)
        .filter((k) => !catalogues[lang][k])
        .map((k) => `${table}: ${k}`),
    );
    expect(missing).toEqual([]);
  });

  it('builds options, value enums and cell text, an unknown value shown as it is', () => {
    const t = translator('zh-CN');
    expect(optionsOf(MEMBER_TYPE_KEYS, t)).toEqual([
      { value: 'administrator', label: '管理员' },
      { value: 'orgUser', label: '组织用户' },
      { value: 'serviceUser', label: '服务用户' },
      { value: 'externalUser', label: '外部用户' },
    ]);
    expect(valueEnumOf(MEMBER_TYPE_KEYS, translator('en-US')).orgUser).toEqual({ text: 'Organisation user' });
    expect(labelOf(MEMBER_TYPE_KEYS, t, 'externalUser')).toBe('外部用户');
    expect(labelOf(MEMBER_TYPE_KEYS, t, 'robot')).toBe('robot');
    expect(labelOf(MEMBER_TYPE_KEYS, t, null)).toBe('');
  });
});
