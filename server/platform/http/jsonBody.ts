import type { FastifyInstance } from 'fastify';
import { AppError } from './errors';

/** Nesting a JSON body may have: our deepest (fence rings, policy parameters) stay under ten. */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = new Set([0x5b, 0x7b]); // [ {
const CLOSE = new Set([0x5d, 0x7d]); // ] }

/**
 * Whether JSON text nests arrays and objects deeper than `limit`, counting brackets outside
 * strings. One pass without allocation, so a body of hundreds of thousands of brackets costs
 * microseconds rather than a parse, and every hook after it (the NUL guard, validation) that walks
 * the value recursively, into a stack overflow. Malformed text is left to the parser to refuse.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) i++;
        else if (d === QUOTE) break;
      }
    } else if (OPEN.has(c)) {
      if (++depth > limit) return true;
    } else if (CLOSE.has(c)) depth--;
  }
  return false;
}

/**
 * Fastify's own JSON parser (secure-json-parse, refusing `__proto__` and `constructor.prototype`
 * keys as Fastify does by default) behind the depth check, for every route taking JSON.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (nestsDeeperThan(body as string, MAX_JSON_DEPTH)) done(new AppError(400, 'error.jsonTooDeep', { limit: MAX_JSON_DEPTH }), undefined);
    else parse(req, body as string, done);
  });
}
