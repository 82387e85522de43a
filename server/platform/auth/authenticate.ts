import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, forbidden, unauthorized } from '../http/errors';
import { requestApplication } from './application';
import { can, PUBLIC, type Caller } from './caller';
import { callerFromToken, type SessionDeps } from './sessions';

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
 * session (401) and the declared action code (403). The X-Authority header is never consulted.
 */
export function installAuthentication(app: FastifyInstance, deps: SessionDeps): void {
  app.addHook('onRequest', async (req) => {
    const url = req.routeOptions.url;
    // 404s fall through to the not-found handler; console files and the API docs are public.
    if (!url || !url.startsWith('/api/') || url.startsWith('/api/docs')) return;
    const permission = requiredCode(req);
    if (permission === PUBLIC) return;
    if (!permission) throw new AppError(403, 'http.forbidden');
    const token = bearer(req);
    const caller = token ? await callerFromToken(deps, token) : null;
    if (!caller) throw unauthorized();
    req.caller = caller;
    checkSessionScope(caller, !!req.routeOptions.config?.passwordScope);
    if (!can(caller, permission)) throw forbidden();
    if (req.routeOptions.config?.sharedWrite && !caller.orgIsSystem) throw new AppError(403, 'security.sharedSystemOnly');
  });
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
