import type { FastifyInstance } from 'fastify';
import { roleMisassignmentsAnswer } from '../../schemas/kit/roleMisassignment';
import { translator } from '../../schemas/kit/catalogue';
import { callerOf } from '../platform/auth/authenticate';
import { notFound } from '../platform/http/errors';
import { requestLanguage } from '../platform/http/language';
import { auditRequest } from '../platform/audit';
import type { PassportDeps } from './deps';
import { misassignedRoles } from './roleScope';
import { idParams, successAnswer } from './routeKit';
import { unlockAccount } from './throttle';
import { membersInScope } from './memberChecks';
import { typed } from '../platform/http/typed';

/** Administrators' remedies: lift an account's sign-in lock, list role assignments that break the organisation rule. */
export function registerSecurityRoutes(fastify: FastifyInstance, deps: PassportDeps): void {
  const app = typed(fastify);
  const { db } = deps;

  app.post('/api/passport/member/unlock', {
    config: { permission: 'member-unlock', labels: 'passport.fields' },
    schema: {
      tags: ['member'],
      summary: "Lift an account's sign-in lock at every address (the per-address locks stay)",
      body: { type: 'object', additionalProperties: false, required: ['id'], properties: idParams.properties } as const,
      response: { 200: successAnswer },
    },
    handler: async (req) => {
      const caller = callerOf(req);
      const target = await membersInScope(db, caller).select(['m.id', 'm.login_name']).where('m.id', '=', req.body.id).executeTakeFirst();
      if (!target) throw notFound();
      const cleared = await unlockAccount(db, target.login_name);
      await auditRequest(db, req, caller, 'memberUnlock', String(target.id), { cleared });
      return { success: true, message: translator(requestLanguage(req))('security.unlocked') };
    },
  });

  app.get('/api/passport/member/role-misassignments', {
    config: { permission: 'member-roleAudit' },
    schema: {
      tags: ['member'],
      summary: "Accounts of the caller's subtree holding a role of an organisation outside their own and those above it",
      response: { 200: roleMisassignmentsAnswer },
    },
    handler: async (req) => {
      const data = await misassignedRoles(db, callerOf(req).orgPath);
      return { total: data.length, data };
    },
  });
}
