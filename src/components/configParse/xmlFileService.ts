import { request, type AxiosError } from '@umijs/max';
import { serverMessage } from '../../services/http/failure';

/** Upload rules, as the server enforces them (SPEC.md §5: "upload file", "only xml file type"). */
export const XML_EXTENSION = '.xml';
export const MAX_XML_BYTES = 1024 * 1024;
export const MAX_XML_LABEL = '1 MB';
export const UPLOAD_CODE = 'configParseFile-edit';

const fileUrl = (id: number) => `/vehicle/configParseFile/${id}/file`;

/** What is wrong with a chosen file before it is sent: a message key and its parameters, or null. */
export function refuseFile(file: { name: string; size: number }): { key: string; params?: Record<string, string> } | null {
  if (!file.name.toLowerCase().endsWith(XML_EXTENSION)) return { key: 'upload.onlyXml' };
  if (file.size > MAX_XML_BYTES) return { key: 'upload.tooLarge', params: { limit: MAX_XML_LABEL } };
  return null;
}

/** Uploads the XML of a record; answers the updated record. Failures are shown by the caller. */
export function uploadXml(id: number, file: Blob, name: string) {
  const form = new FormData();
  form.append('file', file, name);
  return request<Record<string, unknown>>(fileUrl(id), { method: 'POST', data: form, authority: UPLOAD_CODE });
}

export const downloadXml = (id: number) => request<Blob>(fileUrl(id), { method: 'GET', responseType: 'blob' });

/** Statuses the request layer reports itself (SPEC.md §8); the others (413, 404, no answer) are the caller's to show. */
export const REPORTED_STATUSES: readonly number[] = [400, 401, 403, 406, 500];

/** Hands a blob to the browser as a download under `name`. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Status and server message of a failed call; a blob answer (a refused download) is read as JSON first. */
export async function failureMessage(e: unknown): Promise<{ status?: number; message?: string }> {
  const response = (e as AxiosError).response;
  let data: unknown = response?.data;
  if (typeof Blob !== 'undefined' && data instanceof Blob) {
    try {
      data = JSON.parse(await data.text());
    } catch {
      data = undefined;
    }
  }
  return { status: response?.status, message: serverMessage(data) };
}
