import type { FastifyRequest } from 'fastify';
import { languageFromHeader, type Language } from '../../../schemas/kit/i18n';

/** The caller's language: Accept-Language (zh-CN when absent or unsupported). */
export function requestLanguage(req: FastifyRequest): Language {
  const h = req.headers['accept-language'];
  return languageFromHeader(Array.isArray(h) ? h[0] : h);
}
