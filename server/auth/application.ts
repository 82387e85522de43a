import type { FastifyRequest } from 'fastify';
import { APPLICATIONS, DEFAULT_APPLICATION, type Application } from '../seed/menu';
import { AppError } from '../http/errors';

export const isApplication = (v: unknown): v is Application => typeof v === 'string' && (APPLICATIONS as readonly string[]).includes(v);

/** The application a call is about: `x-application-code` (default obd-web); unknown codes are refused. */
export function requestApplication(req: FastifyRequest): Application {
  const h = req.headers['x-application-code'];
  const v = Array.isArray(h) ? h[0] : h;
  if (v === undefined || v === '') return DEFAULT_APPLICATION;
  if (!isApplication(v)) throw new AppError(400, 'passport.unknownApplication', { application: v.slice(0, 40) });
  return v;
}
