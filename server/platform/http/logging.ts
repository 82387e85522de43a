import type { FastifyServerOptions } from 'fastify';

/**
 * `/login/{user}/{password}` is a console route: never let the password reach a log line. Nor the
 * `?token=` a WebSocket carries (browsers cannot send it as a header).
 */
export function safeUrl(url: string): string {
  return url.replace(/^(\/login\/[^/?#]*\/)[^?#]*/, '$1***').replace(/([?&]token=)[^&#]*/g, '$1***');
}

export type LogFormat = 'pretty' | 'json';

/**
 * Readable lines for a person at a terminal, JSON lines for anything else (a pipe, a file, a log
 * collector), decided by whether the output stream is a TTY.
 */
export const logFormatFor = (out: { isTTY?: boolean }): LogFormat => (out.isTTY ? 'pretty' : 'json');

/** Pino options: no tokens, cookies or passwords in any log line; `pretty` through pino-pretty. */
export function loggerOptions(level: string, format: LogFormat = 'json'): FastifyServerOptions['logger'] {
  return {
    level,
    ...(format === 'pretty'
      ? { transport: { target: require.resolve('pino-pretty'), options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } }
      : {}),
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.oldPassword', '*.newPassword', '*.token'],
      censor: '***',
    },
    serializers: {
      req: (req: { method: string; url: string; ip?: string; id?: string }) => ({
        id: req.id,
        method: req.method,
        url: safeUrl(req.url),
        ip: req.ip,
      }),
    },
  };
}
