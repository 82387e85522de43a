import type { PageLoaders } from '../pageModule';

/** Hand-written pages of the fleet menu area, by page key (each replaces the generic schema page). */
export const fleetPages: PageLoaders = {
  'fleet/vehicleList': () => import('./vehicleList'),
  'fleet/terminal': () => import('./terminal'),
  'fleet/driver': () => import('./driver'),
  'fleet/configParseFile': () => import('./configParseFile'),
  'fleet/monitor': () => import('./monitor'),
  'fleet/strategy': () => import('./strategy'),
  'fleet/fence': () => import('./fence'),
};
