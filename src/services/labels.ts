import type { Catalogue, Language } from '../../schemas/kit/i18n';
import type { LabelOverride } from '../../schemas/kit/labelRules';
import { call } from './http/call';

/** The label and message overrides (server/labels/routes.ts, issue 17). */

export const LABEL_EDIT = 'label-edit';

/**
 * The effective catalogue of a language, published overrides included. The server answers it
 * `no-cache` with an ETag, so the browser revalidates on each load and never shows stale words.
 */
export const fetchCatalogue = (lang: Language) =>
  call<Catalogue>(`/vehicle/labels/catalogue/${lang}`, { method: 'GET', skipErrorHandler: true });

export const listOverrides = (locale?: Language) =>
  call<LabelOverride[]>('/vehicle/labels', { method: 'GET', authority: LABEL_EDIT, ...(locale ? { params: { locale } } : {}) });

/** Sets the draft of one language of one key. */
export const putDraft = (locale: Language, key: string, value: string) =>
  call<LabelOverride>('/vehicle/labels', { method: 'PUT', authority: LABEL_EDIT, data: { locale, key, value } });

/** Publishes a key's drafts (406 unless all four languages have one). */
export const publishKey = (key: string) =>
  call<{ key: string; version: number }>('/vehicle/labels/publish', { method: 'POST', authority: LABEL_EDIT, data: { key }, quiet: true });

/** Back to the default text in one language. */
export const resetOverride = (locale: Language, key: string) =>
  call<void>(`/vehicle/labels/${locale}/${encodeURIComponent(key)}`, { method: 'DELETE', authority: LABEL_EDIT, quiet: true });
