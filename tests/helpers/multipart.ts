import crypto from 'node:crypto';

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
