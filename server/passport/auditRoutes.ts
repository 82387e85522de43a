import type { FastifyInstance } from 'fastify';
import { auditRecordSchema } from '../../schemas/kit/auditRecord';
import { pageResponseSchema } from '../../schemas/kit/entity';
import { auditBodySchema } from '../../schemas/kit/passportSchemas';
import { callerOf } from '../platform/auth/authenticate';
import { NONE } from '../platform/auth/caller';
import { auditRequest } from '../platform/audit';
import { nameTargets } from './auditTargets';
import type { PassportDeps } from './deps';
import { likePattern, ONE, listPage, pagingBody, pagingOf, sortBy } from './routeKit';
import { pathUnder } from '../platform/scope';
import { typed } from '../platform/http/typed';

/** The console's own audit events (SPEC §7) and the log page's query, scoped to the caller subtree. */
export function registerAuditRoutes(fastify: FastifyInstance, deps: PassportDeps): void {
  const app = typed(fastify);
  const { db } = deps;

  app.post('/api/vehicle/audit/audit/:app', {
    config: { permission: NONE, labels: 'passport.fields' },
    schema: {
      tags: ['audit'],
      summary: 'Record an audit event of the console',
      params: { type: 'object', required: ['app'], properties: { app: { type: 'string', enum: ['obd-web', 'vehicle-app'] } } },
      body: auditBodySchema,
      response: {
        201: { type: 'object', additionalProperties: false, required: ['success'], properties: { success: { type: 'boolean' } } },
      },
    },
    handler: async (req, reply) => {
      const b = req.body;
      // Client events are namespaced so they can never pass for server-side ones.
      await auditRequest(db, req, callerOf(req), `client:${b.action}`, b.target ?? undefined, b.detail ?? undefined);
      return reply.status(201).send({ success: true });
    },
  });

  app.post('/api/vehicle/audit/query', {
    config: { permission: 'log-view' },
    schema: {
      tags: ['audit'],
      summary: 'Audit log of the caller subtree, newest first, each target named (targetKind, targetName)',
      body: pagingBody(
        {
          action: { type: ['string', 'null'], maxLength: 64 },
          memberName: { type: ['string', 'null'], maxLength: 64 },
          target: { type: ['string', 'null'], maxLength: 200 },
          memberId: { type: ['integer', 'null'] },
          success: { type: ['boolean', 'null'] },
          at: { type: ['array', 'null'], maxItems: 2, items: { type: ['string', 'null'], format: 'date-time' } },
        },
        ['at', 'action'],
      ),
      response: { 200: pageResponseSchema(auditRecordSchema) },
    },
    handler: async (req) => {
      const caller = callerOf(req);
      const p = pagingOf(req);
      const c = p.criteria ?? {};
      let q = db
        .selectFrom('audit_log as a')
        .innerJoin('organisation as o', 'o.id', 'a.org_id')
        .leftJoin('member as actor', 'actor.id', 'a.actor_member_id')
        .where(pathUnder('o.path', caller.orgPath));
      if (typeof c.keyword === 'string' && c.keyword) {
        const k = likePattern(c.keyword);
        q = q.where((eb) => eb.or([eb('a.member_name', 'ilike', k), eb('a.target', 'ilike', k), eb('a.action', 'ilike', k)]));
      }
      if (typeof c.action === 'string' && c.action) q = q.where('a.action', '=', c.action);
      // The log page's actor and target searches (contains, case-insensitive).
      if (typeof c.memberName === 'string' && c.memberName) q = q.where('a.member_name', 'ilike', likePattern(c.memberName));
      if (typeof c.target === 'string' && c.target) q = q.where('a.target', 'ilike', likePattern(c.target));
      if (typeof c.memberId === 'number') q = q.where('a.member_id', '=', c.memberId);
      if (typeof c.success === 'boolean') q = q.where('a.success', '=', c.success);
      const [from, to] = Array.isArray(c.at) ? (c.at as Array<string | null>) : [];
      if (from) q = q.where('a.at', '>=', new Date(from));
      if (to) q = q.where('a.at', '<=', new Date(to));
      // Newest first unless the body orders otherwise.
      const { col, dir } = sortBy(p, { at: 'a.at', action: 'a.action' } as const, 'a.at', 'DESC');
      return listPage(
        db,
        p,
        async (limit, offset) =>
          nameTargets(
            db,
            await q
              .select([
                'a.id',
                'a.at',
                'a.action',
                'a.member_id as memberId',
                'a.member_name as memberName',
                'a.org_id as orgId',
                'o.name as orgName',
                'actor.name as actorName',
                'a.application',
                'a.target',
                'a.success',
                'a.ip',
                'a.detail',
              ])
              .orderBy(col, dir)
              .orderBy('a.id', dir)
              .limit(limit)
              .offset(offset)
              .execute(),
          ),
        q.select(ONE),
      );
    },
  });
}
