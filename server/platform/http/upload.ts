import type { FastifyRequest } from 'fastify';
import { AppError } from './errors';

export interface UploadRule {
  /** Largest accepted file. */
  maxBytes: number;
  /** Lower-case extensions with the dot, e.g. ['.xlsx']. */
  extensions: string[];
  /** Message keys: no file sent, and a file of another type. */
  missingKey: string;
  wrongTypeKey: string;
}

export interface Upload {
  filename: string;
  data: Buffer;
}

const human = (bytes: number) => (bytes >= 1 << 20 ? `${bytes / (1 << 20)} MB` : `${Math.round(bytes / 1024)} KB`);

/**
 * The one file of a multipart request, read into memory only up to `maxBytes` (the stream is cut
 * there), of an accepted extension; every refusal is a localised 400 or 413.
 */
export async function readUpload(req: FastifyRequest, rule: UploadRule): Promise<Upload> {
  if (!req.isMultipart()) throw new AppError(400, rule.missingKey);
  const part = await req.file({ limits: { fileSize: rule.maxBytes, files: 1 } });
  if (!part) throw new AppError(400, rule.missingKey);
  const filename = part.filename ?? '';
  const dot = filename.lastIndexOf('.');
  if (dot < 0 || !rule.extensions.includes(filename.slice(dot).toLowerCase())) {
    part.file.resume(); // drain it, so the connection stays usable
    throw new AppError(400, rule.wrongTypeKey);
  }
  try {
    return { filename, data: await part.toBuffer() };
  } catch (e) {
    if ((e as { statusCode?: number }).statusCode === 413) throw new AppError(413, 'upload.tooLarge', { limit: human(rule.maxBytes) });
    throw e;
  }
}
