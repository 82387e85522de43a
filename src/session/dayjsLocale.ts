import dayjs from 'dayjs';
import 'dayjs/locale/es';
import 'dayjs/locale/ja';
import 'dayjs/locale/zh-cn';
import type { Language } from '../../schemas/kit/i18n';

const DAYJS: Record<Language, string> = { 'zh-CN': 'zh-cn', 'en-US': 'en', 'es-ES': 'es', 'ja-JP': 'ja' };

/** antd's date pickers format with dayjs: keep its language with the console's. */
export const applyDayjsLocale = (lang: Language): void => {
  dayjs.locale(DAYJS[lang]);
};
