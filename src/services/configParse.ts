import { call } from './http/call';

/** The configuration parse file's XML (server/configParse/), with the code its upload needs. */
export const UPLOAD_CODE = 'configParseFile-edit';

const fileUrl = (id: number) => `/vehicle/configParseFile/${id}/file`;

/** Uploads the XML of a record; answers the updated record. Failures are shown by the caller. */
export function uploadXml(id: number, file: Blob, name: string) {
  const form = new FormData();
  form.append('file', file, name);
  return call<Record<string, unknown>>(fileUrl(id), { method: 'POST', data: form, authority: UPLOAD_CODE });
}

export const downloadXml = (id: number) => call<Blob>(fileUrl(id), { method: 'GET', responseType: 'blob' });
