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
 * A failure of the multipart parser as the caller's input: too large stays 413; a form cut short
 * (the parser's error carries no status) or one it rates 406 (a field declared JSON that is not)
 * is malformed input, 400 (SPEC §8: 406 is for business rules).
 */
function uploadFailure(e: unknown, rule: UploadRule): AppError {
  if (e instanceof AppError) return e;
  const status = (e as { statusCode?: number }).statusCode;
  if (status === 413) return new AppError(413, 'upload.tooLarge', { limit: human(rule.maxBytes) });
  if (status !== undefined && status >= 500) throw e;
  return new AppError(400, 'upload.incomplete');
}

/**
 * The one file of a multipart request, read into memory only up to `maxBytes` (the stream is cut
 * there), of an accepted extension; every refusal is a localised 400 or 413.
 */
export async function readUpload(req: FastifyRequest, rule: UploadRule): Promise<Upload> {
  if (!req.isMultipart()) throw new AppError(400, rule.missingKey);
  const part = await req.file({ limits: { fileSize: rule.maxBytes, files: 1 } }).catch((e: unknown) => {
    throw uploadFailure(e, rule);
  });
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
    throw uploadFailure(e, rule);
  }
}
