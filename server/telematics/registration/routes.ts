/**
 * A terminal's registration on the terminal row (issue 18, finding 1):
 * GET /api/vehicle/terminal/{id}/registration shows whether it is registered, the hardware its
 * code is bound to and its recent refused attempts (never the code);
 * PUT /api/vehicle/terminal/{id}/resetRegistration (code `terminal-resetRegistration`, audited)
 * forgets the registration and drops its live session, so the terminal registers afresh.
 */

import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { callerOf } from '../../platform/auth/authenticate';
import { NONE } from '../../platform/auth/caller';
import type { DB } from '../../platform/db/tables';
import { AppError } from '../../platform/http/errors';
import { typed } from '../../platform/http/typed';
import { auditRequest } from '../../platform/audit';
import { scopedTerminal, terminalParams } from '../commands/routes';
import { registrationView, resetRegistration } from '../gateway/registration';
import { terminalById } from '../gateway/terminals';

export const RESET_REGISTRATION_PERMISSION = 'terminal-resetRegistration';
const LABELS = 'telematics.fields';

/**
 * Drops a terminal's live session wherever it is held (this process's gateway, or over NATS the
 * worker holding it); true when there was one.
 */
export type DisconnectTerminal = (terminalId: number, reason: string) => boolean | Promise<boolean>;

/** `disconnect` is null when the gateway is disabled (a reset then has no session to drop). */
export function registerRegistrationRoutes(fastify: FastifyInstance, db: Kysely<DB>, disconnect: DisconnectTerminal | null): void {
  const app = typed(fastify);
  app.get(
    '/api/vehicle/terminal/:id/registration',
    {
      config: { permission: NONE, labels: LABELS },
      schema: {
        tags: ['telematics'],
        summary: 'registration state, bound hardware and refused attempts of a terminal',
        params: terminalParams,
      },
    },
    async (req) => registrationView(db, await scopedTerminal(db, req)),
  );
  app.put(
    '/api/vehicle/terminal/:id/resetRegistration',
    {
      config: { permission: RESET_REGISTRATION_PERMISSION, labels: LABELS },
      schema: { tags: ['telematics'], summary: 'reset the registration of a terminal (it registers again)', params: terminalParams },
    },
    async (req) => {
      const terminalId = await scopedTerminal(db, req);
      const before = await registrationView(db, terminalId);
      if (!(await resetRegistration(db, terminalId))) throw new AppError(406, 'terminalRegistration.notRegistered');
      const disconnected = (await disconnect?.(terminalId, 'registration reset')) ?? false;
      const terminalNo = (await terminalById(db, terminalId))?.terminalNo;
      await auditRequest(db, req, callerOf(req), 'terminalResetRegistration', terminalNo, { hardware: before.hardware, disconnected });
      return registrationView(db, terminalId);
    },
  );
}
