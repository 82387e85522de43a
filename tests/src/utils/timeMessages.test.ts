import { TIME_LOCALES, interpolate, translateUtil, utilMessages } from '../../../src/utils/timeMessages';

describe('utilMessages', () => {
  it('has the zh-CN labels from the spec', () => {
    expect(utilMessages['zh-CN']).toMatchObject({
      'time.justNow': '刚刚',
      'time.minutesAgo': '{n}分钟前',
      'time.hoursAgo': '{n}小时前',
      'time.oneDayAgo': '1天前',
      'time.monthDayTime': '{month}月{day}日{hour}时{minute}分',
      'range.lastWeek': '最近一周',
      'range.lastMonth': '最近一个月',
      'range.lastThreeMonths': '最近三个月',
    });
  });

  it('defines the same non-empty keys in all four locales', () => {
    expect([...TIME_LOCALES]).toEqual(['zh-CN', 'en-US', 'es-ES', 'ja-JP']);
    const zhKeys = Object.keys(utilMessages['zh-CN']).sort();
    for (const locale of TIME_LOCALES) {
      const table = utilMessages[locale];
      expect(Object.keys(table).sort()).toEqual(zhKeys);
      for (const value of Object.values(table)) expect(value.trim()).not.toBe('');
    }
  });

  it('keeps the {n} placeholder in every count message', () => {
    for (const locale of TIME_LOCALES) {
      expect(utilMessages[locale]['time.minutesAgo']).toContain('{n}');
      expect(utilMessages[locale]['time.hoursAgo']).toContain('{n}');
    }
  });

  it('translates with values per locale', () => {
    expect(translateUtil('en-US', 'time.minutesAgo', { n: 5 })).toBe('5 min ago');
    expect(translateUtil('es-ES', 'time.hoursAgo', { n: 2 })).toBe('hace 2 h');
    expect(translateUtil('ja-JP', 'time.minutesAgo', { n: 3 })).toBe('3分前');
    expect(translateUtil('ja-JP', 'range.lastThreeMonths')).toBe('過去3か月');
  });
});

describe('interpolate', () => {
  it('fills known placeholders and keeps unknown ones', () => {
    expect(interpolate('{a}-{b}-{a}', { a: 1 })).toBe('1-{b}-1');
    expect(interpolate('plain')).toBe('plain');
    expect(interpolate('{toString}', {})).toBe('{toString}');
  });
});
