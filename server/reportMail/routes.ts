/**
 * Scheduled reports' own routes beside the entity's CRUD: a schedule's history of sends and "send
 * now" (code `reportSchedule-send`), both for schedules in the caller's organisation subtree only
 * (404 otherwise, as if it did not exist).
 */

import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { NONE } from '../../schemas/kit/authority';
import { callerOf } from '../platform/auth/authenticate';
import { idParams, int, nullable, str } from '../platform/crud/routeSpec';
import type { DB } from '../platform/db/tables';
import { notFound } from '../platform/http/errors';
import { typed } from '../platform/http/typed';
import { scheduleInScope, sendHistory, type ReportMailer, type SendRecord } from './mailer';

export const REPORT_SEND_PERMISSION = 'reportSchedule-send';

const BASE = '/api/vehicle/reportSchedule/:id';

const sendRow = {
  type: 'object',
  additionalProperties: false,
  properties: {
    id: int,
    trigger: { enum: ['schedule', 'manual'] },
    dueAt: { type: ['string', 'null'], format: 'date-time', description: 'the firing a scheduled send was for' },
    attempt: int,
    periodBegin: { type: 'string', format: 'date', description: 'first local day the report covers' },
    periodEnd: { type: 'string', format: 'date', description: 'last local day the report covers' },
    recipients: str,
    startedAt: { type: 'string', format: 'date-time' },
    finishedAt: nullable('string'),
    status: { enum: ['sending', 'sent', 'failed'] },
    error: nullable('string'),
    sizeBytes: nullable('integer'),
  },
} as const;

const iso = (d: Date | null) => (d ? d.toISOString() : null);
/** A send as answered: its times as ISO strings. */
const sendOut = (r: SendRecord) => ({ ...r, dueAt: iso(r.dueAt), startedAt: r.startedAt.toISOString(), finishedAt: iso(r.finishedAt) });

export function registerReportMailRoutes(fastify: FastifyInstance, deps: { db: Kysely<DB>; mailer: ReportMailer }): void {
  const app = typed(fastify);
  const { db, mailer } = deps;
  const schedule = async (orgPath: string, id: number) => {
    const s = await scheduleInScope(db, orgPath, id);
    if (!s) throw notFound();
    return s;
  };

  app.get(
    `${BASE}/sends`,
    {
      config: { permission: NONE },
      schema: {
        tags: ['reportSchedule'],
        summary: 'the latest sends of a schedule (at most 50), newest first: when, the period, to whom, how it ended',
        params: idParams,
        response: { 200: { type: 'array', items: sendRow } },
      },
    },
    async (req) => {
      const s = await schedule(callerOf(req).orgPath, req.params.id);
      return (await sendHistory(db, s.id)).map(sendOut);
    },
  );

  app.post(
    `${BASE}/send`,
    {
      config: { permission: REPORT_SEND_PERMISSION },
      schema: {
        tags: ['reportSchedule'],
        summary: 'sends the last complete period of a schedule now (recorded in its history, whether it was sent or failed)',
        params: idParams,
        response: { 200: sendRow },
      },
    },
    async (req) => sendOut(await mailer.sendNow(await schedule(callerOf(req).orgPath, req.params.id))),
  );
}
