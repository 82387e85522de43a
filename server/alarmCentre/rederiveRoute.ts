/**
 * A policy edit applies from now on: the passes that follow judge new reports by it, and what was
 * found before stays. An admin who wants the past judged by it too asks for a re-derivation from a
 * local day of their choosing: every vehicle the policy covers (its organisation's subtree) is
 * rebuilt alike from that day's start through its newest report, in the background, vehicle after
 * vehicle (intelligence/rebuild.ts, as `npm run derive` does), with its progress on the caller's progress id
 * (`GET /api/vehicle/progress/{id}`, cancelled by `DELETE`), and audited. Handled alarms survive
 * it (intelligence/alarms/store.ts); nothing it finds is announced as a fresh alarm.
 */

import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { callerOf } from '../platform/auth/authenticate';
import { auditRequest } from '../platform/audit';
import { idParams, int } from '../platform/crud/routeSpec';
import type { DB } from '../platform/db/tables';
import { AppError, invalid, notFound } from '../platform/http/errors';
import { typed } from '../platform/http/typed';
import { PROGRESS_HEADER } from '../platform/progress/board';
import { progressHeaders } from '../platform/progress/track';
import { orgUnder, pathOfOrg } from '../platform/scope';
import { dayStart, localDay } from '../intelligence/localDay';
import { rebuildDerived } from '../intelligence/rebuild';
import type { AlarmType } from '../intelligence/alarms/types';

export const POLICY_EDIT_PERMISSION = 'policy-edit';

export interface RederiveDeps {
  db: Kysely<DB>;
  timeZone: string;
  obdAlarmTypes?: ReadonlyMap<number, AlarmType>;
}

const body = {
  type: 'object',
  required: ['from'],
  additionalProperties: false,
  properties: { from: { type: 'string', format: 'date' } },
} as const;

export function registerRederiveRoute(fastify: FastifyInstance, deps: RederiveDeps): void {
  const app = typed(fastify);
  const { db, timeZone } = deps;
  app.post(
    '/api/vehicle/policy/:id/rederive',
    {
      config: { permission: POLICY_EDIT_PERMISSION, labels: 'alarm.fields' },
      schema: {
        tags: ['alarm'],
        summary: 'derive again, under the policies now in force, every vehicle the policy covers from a local day on (in the background)',
        params: idParams,
        headers: progressHeaders,
        body,
        response: { 202: { type: 'object', properties: { vehicles: int } } },
      },
    },
    async (req, reply) => {
      const caller = callerOf(req);
      const { id } = req.params;
      const day = req.body.from;
      const policy = await sql<{
        org_id: number;
      }>`SELECT p.org_id FROM policy p WHERE p.id = ${id} AND ${orgUnder('p.org_id', caller.orgPath)}`.execute(db);
      const orgId = policy.rows[0]?.org_id;
      if (orgId === undefined) throw notFound();
      if (day > localDay(Date.now(), timeZone))
        throw invalid([{ field: 'from', key: 'alarm.rederiveFuture', params: {}, labelKey: 'alarm.fields.from' }]);
      const vehicles = (
        await sql<{ id: number }>`SELECT v.id FROM vehicle v WHERE ${orgUnder('v.org_id', pathOfOrg(orgId))} ORDER BY v.id`.execute(db)
      ).rows.map((r) => r.id);
      await auditRequest(db, req, caller, 'policyRederive', `policy:${id}`, { from: day, vehicles: vehicles.length });
      const header = req.headers[PROGRESS_HEADER];
      const progress = app.progressBoard.begin(caller.memberId, typeof header === 'string' ? header : undefined, 'store');
      progress.phase('store', vehicles.length);
      // Not awaited: the answer says it has begun; the progress id follows it to the end.
      void rebuildDerived(
        db,
        timeZone,
        { vehicle: vehicles, from: dayStart(day, timeZone), to: Infinity },
        {
          obdAlarmTypes: deps.obdAlarmTypes,
          each: (done) => {
            progress.done(done);
            progress.check();
          },
        },
      ).then(
        () => progress.finish(),
        (err: unknown) => {
          // A cancel stops it between vehicles: what was rebuilt stays so, as a rebuild of fewer would.
          if (err instanceof AppError && err.key === 'progress.cancelled') return;
          progress.fail();
          req.log.error({ err, policyId: id }, 'policy re-derivation failed');
        },
      );
      return reply.status(202).send({ vehicles: vehicles.length });
    },
  );
}
