/**
 * The telematics HTTP surface: downlink commands, terminal registration and the live WebSocket (with
 * the gateway), and the JT/T 808 decode tool (always, from the app).
 */

import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { SessionDeps } from '../platform/auth/sessions';
import type { DB } from '../platform/db/tables';
import type { Rebind } from '../platform/terminalSessions';
import { registerCommandRoutes } from './commands/routes';
import { registerUpgradeRoutes } from './commands/upgradeRoutes';
import type { CommandService } from './commands/service';
import type { LiveHub } from './live/hub';
import type { SessionWatch } from './live/sessionWatch';
import type { Jt808Gateway } from './gateway/server';
import { registerLiveRoute } from './live/routes';
import { registerRegistrationRoutes, type DisconnectTerminal } from './registration/routes';

export { registerDecodeRoute } from './decodeRoute';
export { registerMediaRoutes } from './media/routes';

export interface TelematicsRouteDeps {
  db: Kysely<DB>;
  /** Null when the gateway is disabled. */
  commands: CommandService | null;
  /** Null when the gateway is disabled. */
  gateway: Jt808Gateway | null;
  hub: LiveHub;
  /** Closes live sockets whose session ended or changed scope. */
  watch: SessionWatch;
  sessionDeps: SessionDeps;
  /** Drops a terminal's session wherever it is held (several processes); default: this gateway's. */
  disconnect?: DisconnectTerminal | null;
  /** Makes terminals' sessions read their binding again wherever held (several processes); default: this gateway's. */
  rebind?: Rebind | null;
}

/**
 * Registers /api/vehicle/terminal/{id}/command/…, …/registration, …/resetRegistration and
 * /api/vehicle/live, and installs the way to live sessions for binding changes; call before app.ready().
 */
export async function registerTelematicsRoutes(app: FastifyInstance, deps: TelematicsRouteDeps): Promise<void> {
  registerCommandRoutes(app, deps.db, deps.commands);
  registerUpgradeRoutes(app, deps.db, deps.commands);
  const gateway = deps.gateway;
  const local: DisconnectTerminal | null = gateway ? (id, reason) => gateway.disconnect(id, reason) : null;
  registerRegistrationRoutes(app, deps.db, deps.disconnect === undefined ? local : deps.disconnect);
  const localRebind: Rebind | null = gateway ? async (ids) => void (await gateway.rebind(ids)) : null;
  app.terminalSessions.install(deps.rebind === undefined ? localRebind : deps.rebind);
  await registerLiveRoute(app, deps.hub, deps.watch, deps.sessionDeps);
}
