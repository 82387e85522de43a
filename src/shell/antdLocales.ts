import type { Locale } from 'antd/es/locale';
import enUS from 'antd/es/locale/en_US';
import esES from 'antd/es/locale/es_ES';
import jaJP from 'antd/es/locale/ja_JP';
import zhCN from 'antd/es/locale/zh_CN';
import type { Language } from '../../schemas/kit/i18n';

/**
 * antd's own words (pickers, pagination, empty states) per language. Root hands them to its
 * ConfigProvider rather than Umi's locale plugin, whose provider would put antd in the entry script.
 */
export const ANTD_LOCALES: Record<Language, Locale> = { 'zh-CN': zhCN, 'en-US': enUS, 'es-ES': esES, 'ja-JP': jaJP };
