import type { Translate } from '../../../schemas/kit/i18n';
import type { ExportMode } from './sheetCalls';

const pad = (n: number) => String(n).padStart(2, '0');

/** Local date and time as 20261122-153045: sorts by time, and is safe in a file name. */
export function fileStamp(d: Date): string {
  return `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}-${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}`;
}

/** Characters no file system accepts in a name (and control characters) become `_`. */
// eslint-disable-next-line no-control-regex -- control characters are what the name must lose
export const safeFileName = (name: string): string => name.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').trim() || '_';

/** The downloaded export's name in the user's language, e.g. 车辆_当前页_20261122-153045.xlsx. */
export function exportFileName(t: Translate, title: string, mode: ExportMode, now: Date): string {
  const key = mode === 'all' ? 'console.sheet.fileAll' : 'console.sheet.fileCurrent';
  return `${safeFileName(t(key, { title, time: fileStamp(now) }))}.xlsx`;
}

export function templateFileName(t: Translate, title: string, kind: 'import' | 'renew'): string {
  return `${safeFileName(t(kind === 'renew' ? 'console.sheet.renewTemplateFile' : 'console.sheet.importTemplateFile', { title }))}.xlsx`;
}
