import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/** A multipart/form-data body carrying one file, as a browser's FormData upload sends it. */
export function multipartFile(
  filename: string,
  data: Buffer,
  contentType = 'application/octet-stream',
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----fleetstar${crypto.randomBytes(8).toString('hex')}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`;
  const payload = Buffer.concat([Buffer.from(head), data, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** An xlsx workbook uploaded to `url` through the app as the holder of `token`, with extra headers: the answer's status and body. */
export async function uploadSheet(
  app: FastifyInstance,
  token: string,
  url: string,
  file: Buffer,
  extra: Record<string, string> = {},
  name = 'rows.xlsx',
) {
  const { payload, headers } = multipartFile(name, file, XLSX);
  const res = await app.inject({ method: 'POST', url, payload, headers: { ...headers, authorization: `Bearer ${token}`, ...extra } });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

/** The `accept-language` header of a language, when one is given. */
export const inLanguage = (lang?: string): Record<string, string> => (lang ? { 'accept-language': lang } : {});
