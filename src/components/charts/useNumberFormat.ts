import { useIntl } from '@umijs/max';
import { useMemo } from 'react';
import { numberFormatter, type FormatNumber } from './numberFormat';

/** The number formatter of the console's chosen language. */
export function useNumberFormat(): FormatNumber {
  const { locale } = useIntl();
  return useMemo(() => numberFormatter(locale), [locale]);
}
