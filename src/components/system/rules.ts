import type { Rule } from 'antd/es/form';
import { customFormats } from '../../../schemas/kit/formats';
import type { Translate } from '../../../schemas/kit/i18n';
import { LOGIN_PASSWORD } from '../../../schemas/kit/password';

/** Form rules of SPEC.md §5 with the catalogue's messages, the same checks the server makes. */

/** '{field}不能为空' with the field's label. */
export const required = (t: Translate, label: string): Rule => ({ required: true, message: t('validation.required', { field: label }) });

/** 3–4 digits then 8 (11–12 in all): '手机号格式不正确'. */
export const phoneRule = (t: Translate): Rule => ({ pattern: customFormats.phone, message: t('validation.phone') });

/** Account-form passwords: 6–20 characters. */
export const accountPasswordRule = (t: Translate): Rule => ({ pattern: LOGIN_PASSWORD, message: t('validation.accountPassword') });

/** http(s), mailto or tel. */
export const externalLinkRule = (t: Translate, label: string): Rule => ({
  pattern: customFormats['external-link'],
  message: t('validation.externalLink', { field: label }),
});

/** A text no longer than the server takes. */
export const maxLength = (t: Translate, label: string, limit: number): Rule => ({
  max: limit,
  message: t('validation.maxLength', { field: label, limit }),
});

/** The confirmation field matching the password field. */
export const confirmRule =
  (t: Translate, passwordField: string): Rule =>
  ({ getFieldValue }) => ({
    validator: (_, v: string | undefined) =>
      !v || v === getFieldValue(passwordField) ? Promise.resolve() : Promise.reject(new Error(t('validation.confirmPassword.mismatch'))),
  });
