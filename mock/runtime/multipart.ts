import crypto from 'node:crypto';

/** A file as Umi's mock middleware (multer, memory storage) hands it over. */
export interface UploadedFile {
  fieldname: string;
  originalname: string;
  mimetype: string;
  buffer: Buffer;
}

const quoted = (s: string) => s.replace(/["\\\r\n]/g, (c) => encodeURIComponent(c));

/**
 * A multipart/form-data body again, from the fields and files multer parsed out of the original:
 * Umi reads the request stream before any mock handler runs, so the upload is rebuilt to reach
 * the server's own multipart reader. Names go back as UTF-8, as browsers send them.
 */
export function multipartBody(fields: Record<string, unknown>, files: UploadedFile[]): { contentType: string; body: Buffer } {
  const boundary = `----fleetstar-mock-${crypto.randomBytes(12).toString('hex')}`;
  const parts: Buffer[] = [];
  const head = (name: string, extra = '') =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"${extra}`, 'utf8');
  for (const [name, value] of Object.entries(fields)) {
    for (const v of [value].flat()) parts.push(head(name), Buffer.from(`\r\n\r\n${String(v)}\r\n`, 'utf8'));
  }
  for (const f of files) {
    parts.push(
      head(f.fieldname, `; filename="${quoted(f.originalname)}"\r\nContent-Type: ${f.mimetype || 'application/octet-stream'}`),
      Buffer.from('\r\n\r\n', 'utf8'),
      f.buffer,
      Buffer.from('\r\n', 'utf8'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`, 'utf8'));
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(parts) };
}
