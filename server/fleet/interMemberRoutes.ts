import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { translator } from '../../schemas/kit/catalogue';
import { callerOf } from '../platform/auth/authenticate';
import { generatePassword, hashPassword } from '../platform/auth/password';
import { scopeCondition } from '../platform/crud/query';
import { notFound } from '../platform/http/errors';
import { requestLanguage } from '../platform/http/language';
import { auditRequest } from '../platform/audit';
import { typed } from '../platform/http/typed';
import { successAnswer } from '../platform/crud/routeSpec';
import { idParams, type VehicleDeps } from './deps';

/**
 * SPEC §7 `interMember/reset/{id}`: a new generated password for an international member, stored
 * only as a hash and handed out once in the answer; audited like other password resets.
 */
/** A reset's success and the new password, shown once. */
const resetAnswer = {
  ...successAnswer,
  required: [...successAnswer.required, 'password'],
  properties: { ...successAnswer.properties, password: { type: 'string' } },
} as const;

export function registerInterMemberRoutes(fastify: FastifyInstance, { db, model }: VehicleDeps): void {
  const app = typed(fastify);
  const members = model('interMember');
  app.post(
    '/api/vehicle/interMember/reset/:id',
    {
      config: { permission: 'interMember-reset', labels: members.labelPrefix },
      schema: {
        tags: ['interMember'],
        summary: 'reset the password of an international member',
        params: idParams,
        response: { 200: resetAnswer },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const { id } = req.params;
      const password = generatePassword();
      const hash = await hashPassword(password);
      const r =
        await sql`UPDATE inter_member t SET password_hash = ${hash}, password_reset_at = now(), updated_at = now() WHERE t.id = ${id} AND ${scopeCondition(members, caller)} RETURNING t.id`.execute(
          db,
        );
      if (!r.rows.length) throw notFound();
      await auditRequest(db, req, caller, 'passwordReset', `interMember:${id}`);
      return { success: true, message: translator(requestLanguage(req))('interMember.passwordReset'), password };
    },
  );
}
