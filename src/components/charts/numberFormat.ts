/** Numbers as the chosen language writes them (grouping, decimal mark), with at most `digits` decimals. */
export function formatNumber(value: number | null | undefined, locale: string, digits = 0): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  return new Intl.NumberFormat(locale, { maximumFractionDigits: digits, minimumFractionDigits: 0 }).format(value);
}

/** A number formatter bound to a language. */
export type FormatNumber = (value: number | null | undefined, digits?: number) => string;

export const numberFormatter =
  (locale: string): FormatNumber =>
  (value, digits = 0) =>
    formatNumber(value, locale, digits);
