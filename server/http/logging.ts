import type { FastifyServerOptions } from 'fastify';

/**
 * `/login/{user}/{password}` is a console route: never let the password reach a log line. Nor the
 * `?token=` a WebSocket carries (browsers cannot send it as a header).
 */
export function safeUrl(url: string): string {
  return url.replace(/^(\/login\/[^/?#]*\/)[^?#]*/, '$1***').replace(/([?&]token=)[^&#]*/g, '$1***');
}

/** Pino options: no tokens, cookies or passwords in any log line. */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.oldPassword', '*.newPassword', '*.token'],
      censor: '***',
    },
    serializers: {
      req: (req: { method: string; url: string; ip?: string; id?: string }) => ({ id: req.id, method: req.method, url: safeUrl(req.url), ip: req.ip }),
    },
  };
}
