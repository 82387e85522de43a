import type { FastifyRequest } from 'fastify';
import { APPLICATIONS } from '../../../schemas/kit/loginSchema';
import { AppError } from '../http/errors';

export { APPLICATIONS };
export type Application = (typeof APPLICATIONS)[number];
export const DEFAULT_APPLICATION: Application = 'obd-web';

export const isApplication = (v: unknown): v is Application => typeof v === 'string' && (APPLICATIONS as readonly string[]).includes(v);

const header = (req: FastifyRequest, name: string) => {
  const h = req.headers[name];
  return Array.isArray(h) ? h[0] : h;
};

/**
 * The application a call is about: `x-application-code`, else an `AppCode` naming an application
 * (elsewhere AppCode carries a branch code), else obd-web. Unknown application codes are refused.
 */
export function requestApplication(req: FastifyRequest): Application {
  const appCode = header(req, 'appcode');
  const v = header(req, 'x-application-code') || (isApplication(appCode) ? appCode : undefined);
  if (v === undefined || v === '') return DEFAULT_APPLICATION;
  if (!isApplication(v)) throw new AppError(400, 'passport.unknownApplication', { application: v.slice(0, 40) });
  return v;
}
