import type { FastifyInstance } from 'fastify';
import { registerAssignRoutes } from './assignRoutes';
import { registerBindRoutes } from './bindRoutes';
import type { VehicleDeps } from './deps';
import { registerDriverLicenceRoutes } from './driverLicenceRoutes';
import { registerFenceRoutes } from './fenceRoutes';
import { registerInterMemberRoutes } from './interMemberRoutes';
import { registerServiceRoutes } from './serviceRoutes';
import { registerSuggestRoutes } from './suggestRoutes';

/** The vehicle-service calls of SPEC §7 the generic CRUD cannot express, beside it. */
export function registerVehicleExtras(app: FastifyInstance, deps: VehicleDeps): void {
  const has = (...names: string[]) => names.every((n) => deps.has(n));
  if (has('vehicle', 'terminal')) {
    registerBindRoutes(app, deps);
    registerServiceRoutes(app, deps);
    registerSuggestRoutes(app, deps);
    registerAssignRoutes(app, deps);
  }
  if (has('driver', 'vehicle')) registerDriverLicenceRoutes(app, deps);
  if (has('fence')) registerFenceRoutes(app, deps);
  if (has('interMember')) registerInterMemberRoutes(app, deps);
}
