/** The telematics HTTP surface: downlink commands and the live WebSocket. */

import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { SessionDeps } from '../auth/sessions';
import type { DB } from '../db/tables';
import { registerCommandRoutes } from './commands/routes';
import type { CommandService } from './commands/service';
import type { LiveHub } from './live/hub';
import { registerLiveRoute } from './live/routes';

export interface TelematicsRouteDeps {
  db: Kysely<DB>;
  /** Null when the gateway is disabled. */
  commands: CommandService | null;
  hub: LiveHub;
  sessionDeps: SessionDeps;
}

/** Registers /api/vehicle/terminal/{id}/command/… and /api/vehicle/live; call before app.ready(). */
export async function registerTelematicsRoutes(app: FastifyInstance, deps: TelematicsRouteDeps): Promise<void> {
  registerCommandRoutes(app, deps.db, deps.commands);
  await registerLiveRoute(app, deps.hub, deps.sessionDeps);
}
