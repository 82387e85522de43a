import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { writeAudit } from '../audit';
import type { DB } from '../db/tables';
import { AppError, forbidden, unauthorized } from '../http/errors';
import { requestApplication } from './application';
import { can, PUBLIC, type Caller } from './caller';
import { callerFromToken, type SessionDeps } from './sessions';
import { checkApiKey, countKeyUse, DEFAULT_RATE_LIMIT, presentedApiKey } from './apiKeys';

export function bearer(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m ? m[1] : null;
}

/** The code a route needs for this call (per-application permissions follow `x-application-code`). */
export function requiredCode(req: FastifyRequest): string | undefined {
  const p = req.routeOptions.config?.permission;
  if (p === undefined || typeof p === 'string') return p;
  return p[requestApplication(req)];
}

/**
 * Before any body is read: every /api route must declare its permission; non-public routes need a valid
 * session or API key (401) and the declared action code (403). The X-Authority header is never consulted.
 */
export function installAuthentication(app: FastifyInstance, deps: SessionDeps): void {
  app.addHook('onRequest', async (req, reply) => {
    const url = req.routeOptions.url;
    // 404s fall through to the not-found handler; console files and the API docs are public.
    if (!url || !url.startsWith('/api/') || url.startsWith('/api/docs')) return;
    const permission = requiredCode(req);
    if (permission === PUBLIC) return;
    if (!permission) throw new AppError(403, 'http.forbidden');
    const token = bearer(req);
    const key = presentedApiKey(req, token);
    const caller = key !== null ? await callerFromKey(deps.db, req, reply, key) : token ? await callerFromToken(deps, token) : null;
    if (!caller) throw unauthorized();
    req.caller = caller;
    checkSessionScope(caller, !!req.routeOptions.config?.passwordScope);
    if (caller.apiKey && req.routeOptions.config?.personOnly) throw new AppError(403, 'apiKey.personOnly');
    if (!can(caller, permission)) throw forbidden();
    if (req.routeOptions.config?.sharedWrite && !caller.orgIsSystem) throw new AppError(403, 'security.sharedSystemOnly');
  });
}

/**
 * The caller of an API key: a refused key is audited (with its reason) and answered 401, a key past
 * its rate limit 429 with Retry-After.
 */
async function callerFromKey(db: Kysely<DB>, req: FastifyRequest, reply: FastifyReply, key: string): Promise<Caller> {
  const check = await checkApiKey(db, key, req.ip);
  if (!check.caller || check.keyId === undefined) {
    const reason = check.refusal ?? 'unknown';
    await writeAudit(db, {
      action: 'apiKeyRefused',
      orgId: check.orgId ?? null,
      target: check.prefix ?? null,
      success: false,
      ip: req.ip,
      detail: { reason, ...(check.keyId !== undefined ? { keyId: check.keyId } : {}) },
    });
    throw unauthorized(`apiKey.refused.${reason}`);
  }
  const retry = await countKeyUse(db, check.keyId, req.ip, check.rateLimit ?? DEFAULT_RATE_LIMIT);
  if (retry !== null) {
    void reply.header('retry-after', String(retry));
    throw new AppError(429, 'apiKey.rateLimited', { seconds: retry });
  }
  return check.caller;
}

/** A weak-password session may only change its password: 403 wherever `passwordScope` is not allowed (REST routes, the live socket). */
export function checkSessionScope(caller: Caller, passwordScope: boolean): void {
  if (caller.scope === 'password' && !passwordScope) throw new AppError(403, 'passport.passwordChangeRequired');
}

/** The caller of an authenticated route (the hook guarantees one). */
export function callerOf(req: FastifyRequest) {
  if (!req.caller) throw unauthorized();
  return req.caller;
}
