import { readBlobFailure } from '../../services/http/call';
import { serverMessage } from '../../services/http/failure';

export { downloadXml, uploadXml, UPLOAD_CODE } from '../../services/configParse';
export { saveBlob } from '../../utils/saveBlob';

/** Upload rules, as the server enforces them (SPEC.md §5: "upload file", "only xml file type"). */
export const XML_EXTENSION = '.xml';
export const MAX_XML_BYTES = 1024 * 1024;
export const MAX_XML_LABEL = '1 MB';

/** What is wrong with a chosen file before it is sent: a message key and its parameters, or null. */
export function refuseFile(file: { name: string; size: number }): { key: string; params?: Record<string, string> } | null {
  if (!file.name.toLowerCase().endsWith(XML_EXTENSION)) return { key: 'upload.onlyXml' };
  if (file.size > MAX_XML_BYTES) return { key: 'upload.tooLarge', params: { limit: MAX_XML_LABEL } };
  return null;
}

/** Statuses the request layer reports itself (SPEC.md §8); the others (413, 404, no answer) are the caller's to show. */
export const REPORTED_STATUSES: readonly number[] = [400, 401, 403, 406, 500];

/** Status and server message of a failed call; a blob answer (a refused download) is read as JSON first. */
export async function failureMessage(e: unknown): Promise<{ status?: number; message?: string }> {
  const response = await readBlobFailure(e);
  return { status: response?.status, message: serverMessage(response?.data) };
}
