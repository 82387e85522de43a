import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { toFieldErrors } from '../../../schemas/kit/errors';
import { AppError, duplicate, errorBody, invalid } from './errors';
import { requestTranslator } from '../labelOverrides';

/** Unique index name → the properties it covers (their label keys), for readable 406 answers. */
export type UniqueIndexMap = Map<string, { fields: string[]; labelKeys: string[]; key?: string }>;

interface DbError {
  code?: string;
  constraint?: string;
}

function classify(error: FastifyError & DbError, req: FastifyRequest, unique: UniqueIndexMap): AppError | null {
  if (error instanceof AppError) return error;
  if (error.validation) {
    const fes = toFieldErrors(error.validation, req.routeOptions.config?.labels ?? 'common.fields');
    return invalid(fes);
  }
  switch (error.code) {
    case '23505': {
      const hit = error.constraint ? unique.get(error.constraint) : undefined;
      return duplicate(hit?.fields ?? [], hit?.labelKeys ?? [], hit?.key);
    }
    case '23503':
      return req.method === 'DELETE' ? new AppError(406, 'error.inUse') : new AppError(400, 'http.badRequest');
    case '22P02':
    case '22007':
    case '22008':
    case '22003':
    case '22001':
    case '22021': // a NUL or a byte sequence the database cannot store: the guard refuses them first
    case '22P05':
      return new AppError(400, 'http.badRequest');
  }
  if (error.code?.startsWith('FST_ERR_CTP') && error.statusCode === 400) return new AppError(400, 'error.badJson');
  if (error.statusCode === 413) return new AppError(413, 'error.payloadTooLarge');
  if (error.statusCode === 429) return new AppError(429, 'http.tooManyRequests');
  // A framework or plugin error is about the request's form, never a business rule: its 406 is a 400.
  if (error.statusCode === 406) return new AppError(400, 'http.badRequest');
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) return new AppError(error.statusCode, 'http.badRequest');
  return null;
}

/** Every failure answers `{success:false, code, message, errors?}` in the caller's language. */
export function makeErrorHandler(unique: UniqueIndexMap) {
  return (error: FastifyError & DbError, req: FastifyRequest, reply: FastifyReply) => {
    const t = requestTranslator(req);
    const known = classify(error, req, unique);
    if (!known) {
      req.log.error({ err: error }, 'unhandled error');
      return reply.status(500).send({ success: false, code: 'http.serverError', message: t('http.serverError') });
    }
    return reply.status(known.status).send(errorBody(known, t));
  };
}
