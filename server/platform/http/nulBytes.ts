import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FieldError } from '../../../schemas/kit/errors';
import { invalid } from './errors';

/** The dotted path of the first string (value or key) holding a NUL character, or null. */
export function nulPath(value: unknown, path: string[] = []): string[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [k, v] of Object.entries(value)) {
    // eslint-disable-next-line no-control-regex -- the NUL is what this guard looks for
    if (k.includes('\u0000')) return [...path, k.replace(/\u0000/g, '')];
    const hit = nulPath(v, [...path, k]);
    if (hit) return hit;
  }
  return null;
}

/**
 * PostgreSQL text cannot hold U+0000: a NUL reaching a query is a 500. Refused at the boundary,
 * before validation, in params, query strings and JSON bodies alike (400 on the field).
 */
export function installNulByteGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (req: FastifyRequest) => {
    for (const part of [req.params, req.query, req.body]) {
      const path = nulPath(part);
      if (!path) continue;
      const leaf = [...path].reverse().find((s) => !/^\d+$/.test(s)) ?? '';
      const error: FieldError = {
        field: path.join('.'),
        key: 'security.nulByte',
        params: {},
        labelKey: `${req.routeOptions.config?.labels ?? 'common.fields'}.${leaf}`,
      };
      throw invalid([error]);
    }
  });
}
