import { useIntl } from '@umijs/max';
import { useCallback } from 'react';
import type { MessageParams, Translate } from '../../schemas/kit/i18n';

/** `t(key, params)` in the chosen language, from the shared catalogue. */
export function useT(): Translate {
  const intl = useIntl();
  return useCallback((id: string, values?: MessageParams) => intl.formatMessage({ id }, values), [intl]);
}
