/** What the server accepts as an import file (server/crud/sheetRoutes.ts, sheet/read.ts; a test keeps them equal). */
export const SHEET_MAX_BYTES = 5 * 1024 * 1024;
export const SHEET_MAX_ROWS = 10_000;
/** The extensions accepted, as the file picker's `accept` takes them. */
export const SHEET_EXTENSIONS = ['.xlsx', '.csv'];

export interface FileProblem {
  key: string;
  params?: Record<string, string | number>;
}

export const humanSize = (bytes: number): string =>
  bytes >= 1 << 20 ? `${+(bytes / (1 << 20)).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;

/** Why a chosen file cannot be sent (checked before uploading; the server checks again), or null. */
export function fileProblem(file: { name: string; size: number }): FileProblem | null {
  if (!SHEET_EXTENSIONS.some((e) => file.name.toLowerCase().endsWith(e))) return { key: 'console.sheet.notXlsx' };
  if (file.size === 0) return { key: 'console.sheet.emptyFile' };
  if (file.size > SHEET_MAX_BYTES) return { key: 'console.sheet.tooLarge', params: { limit: humanSize(SHEET_MAX_BYTES) } };
  return null;
}
