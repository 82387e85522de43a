/**
 * Message tables for the time utilities (relative time, quick date ranges).
 * Kept beside the utilities so they stay in sync; the locale files spread them in.
 * Placeholders use `{name}`, compatible with umi/react-intl `formatMessage` values.
 */

export const TIME_LOCALES = ['zh-CN', 'en-US', 'es-ES', 'ja-JP'] as const;
export type TimeLocale = (typeof TIME_LOCALES)[number];

export type TimeAgoKey = 'time.justNow' | 'time.minutesAgo' | 'time.hoursAgo' | 'time.oneDayAgo';
export type TimeMessageKey = TimeAgoKey | 'time.monthDayTime' | 'time.unit.minutes' | 'time.unit.hours' | 'time.unit.days';
export type RangeMessageKey = 'range.lastWeek' | 'range.lastMonth' | 'range.lastThreeMonths';
export type UtilMessageKey = TimeMessageKey | RangeMessageKey;

export type MessageValues = Readonly<Record<string, string | number>>;

/** Every locale must define every key; the type makes a missing translation a compile error. */
export type UtilMessages = Readonly<Record<UtilMessageKey, string>>;

// English and Spanish use short units ("5 min ago") so one template reads right for n = 1 and n > 1
// without ICU plural rules. Clock-style templates use {mm}, the two-digit minute.
export const utilMessages: Readonly<Record<TimeLocale, UtilMessages>> = {
  'zh-CN': {
    'time.justNow': '刚刚',
    'time.minutesAgo': '{n}分钟前',
    'time.hoursAgo': '{n}小时前',
    'time.oneDayAgo': '1天前',
    'time.monthDayTime': '{month}月{day}日{hour}时{minute}分',
    'time.unit.minutes': '分钟',
    'time.unit.hours': '小时',
    'time.unit.days': '天',
    'range.lastWeek': '最近一周',
    'range.lastMonth': '最近一个月',
    'range.lastThreeMonths': '最近三个月',
  },
  'en-US': {
    'time.justNow': 'just now',
    'time.minutesAgo': '{n} min ago',
    'time.hoursAgo': '{n} hr ago',
    'time.oneDayAgo': '1 day ago',
    'time.monthDayTime': '{month}/{day} {hour}:{mm}',
    'time.unit.minutes': 'minutes',
    'time.unit.hours': 'hours',
    'time.unit.days': 'days',
    'range.lastWeek': 'Last week',
    'range.lastMonth': 'Last month',
    'range.lastThreeMonths': 'Last 3 months',
  },
  'es-ES': {
    'time.justNow': 'ahora mismo',
    'time.minutesAgo': 'hace {n} min',
    'time.hoursAgo': 'hace {n} h',
    'time.oneDayAgo': 'hace 1 día',
    'time.monthDayTime': '{day}/{month} {hour}:{mm}',
    'time.unit.minutes': 'minutos',
    'time.unit.hours': 'horas',
    'time.unit.days': 'días',
    'range.lastWeek': 'Última semana',
    'range.lastMonth': 'Último mes',
    'range.lastThreeMonths': 'Últimos 3 meses',
  },
  'ja-JP': {
    'time.justNow': 'たった今',
    'time.minutesAgo': '{n}分前',
    'time.hoursAgo': '{n}時間前',
    'time.oneDayAgo': '1日前',
    'time.monthDayTime': '{month}月{day}日{hour}時{minute}分',
    'time.unit.minutes': '分',
    'time.unit.hours': '時間',
    'time.unit.days': '日',
    'range.lastWeek': '過去1週間',
    'range.lastMonth': '過去1か月',
    'range.lastThreeMonths': '過去3か月',
  },
};

/** Relative-time units used by formatTimeAgo (SPEC §9), with their length in seconds. */
export const timeAgoUnits = { minutes: 60, hours: 3600, days: 86400 } as const;
export type TimeAgoUnit = keyof typeof timeAgoUnits;

/** Replaces `{name}` placeholders; unknown placeholders are kept so gaps are visible. */
export function interpolate(template: string, values?: MessageValues): string {
  if (!values) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole,
  );
}

/** A plain translator over these tables, for code outside React (exports, tests). */
export function translateUtil(locale: TimeLocale, key: UtilMessageKey, values?: MessageValues): string {
  return interpolate(utilMessages[locale][key], values);
}
