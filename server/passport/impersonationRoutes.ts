import type { FastifyInstance } from 'fastify';
import { translator } from '../../schemas/kit/catalogue';
import { sessionAnswerSchema, type SessionAnswer } from '../../schemas/kit/loginSchema';
import { accountRefusal, orgStatusInTree } from '../platform/auth/accountState';
import { callerOf } from '../platform/auth/authenticate';
import { NONE } from '../platform/auth/caller';
import { openSession } from '../platform/auth/sessions';
import { endSession } from './sessionEnds';
import { AppError, notFound } from '../platform/http/errors';
import { requestLanguage } from '../platform/http/language';
import { auditRequest } from '../platform/audit';
import type { PassportDeps } from './deps';
import { idOf, idParams, successAnswer } from './routeKit';
import { sessionObject } from './sessionObject';
import { membersInScope } from './memberChecks';
import { typed } from '../platform/http/typed';

/**
 * Simulated login (SPEC §4): act as a member of one's own subtree, in a session tied to the origin
 * session (it ends with it and holds only codes both members hold). Both ways are audited.
 */
export function registerImpersonationRoutes(fastify: FastifyInstance, deps: PassportDeps): void {
  const app = typed(fastify);
  const { db } = deps;

  app.post('/api/passport/member/:id/simulate-login', {
    config: { permission: 'member-simulate', personOnly: true },
    schema: {
      tags: ['member'],
      summary: 'Simulate login as a member of the caller subtree',
      params: idParams,
      response: { 200: sessionAnswerSchema },
    },
    handler: async (req): Promise<SessionAnswer> => {
      const caller = callerOf(req);
      const target = await membersInScope(db, caller)
        .select(['m.id', 'm.status', 'm.expire_date'])
        .select(orgStatusInTree('o').as('org_status'))
        .where('m.id', '=', idOf(req))
        .executeTakeFirst();
      if (!target) throw notFound();
      if (target.id === caller.memberId) throw new AppError(406, 'passport.simulateSelf');
      // Nested impersonation would make "simulate logout" ambiguous.
      if (caller.originSessionId) throw new AppError(406, 'passport.notImpersonating');
      const refusal = accountRefusal(target);
      if (refusal) throw new AppError(406, refusal);
      const token = await openSession(deps, target.id, {
        application: caller.application,
        ip: req.ip,
        userAgent: req.headers['user-agent'] ?? null,
        originSessionId: caller.sessionId,
      });
      await auditRequest(db, req, caller, 'simulateLogin', String(target.id));
      return {
        success: true,
        message: translator(requestLanguage(req))('passport.simulateLogin'),
        object: await sessionObject(db, target.id, token),
      };
    },
  });

  app.post('/api/passport/member/simulate-logout', {
    config: { permission: NONE, personOnly: true },
    schema: { tags: ['member'], summary: 'End a simulated login; the origin session carries on', response: { 200: successAnswer } },
    handler: async (req) => {
      const caller = callerOf(req);
      if (!caller.originSessionId) throw new AppError(406, 'passport.notImpersonating');
      await endSession(deps, caller.sessionId);
      await auditRequest(db, req, caller, 'simulateLogout');
      return { success: true, message: translator(requestLanguage(req))('passport.simulateLogout') };
    },
  });
}
