import type { PageLoader } from './pageModule';
import { alarmPages } from './alarm';
import { dashboardPages } from './dashboard';
import { fleetPages } from './fleet';
import { maintenancePages } from './maintenance';
import { operationPages } from './operation';
import { schemaPages } from './schemaPages';
import { statisticsPages } from './statistics';
import { systemPages } from './system';
import { teamPages } from './team';
import { toolPages } from './tools';
import { VEHICLE_DETAIL_KEY } from '../session/navigation';

export type { PageLoader, PageModule } from './pageModule';

/**
 * Page components by the resource `url` key the server's menu carries (e.g. `system/role`), each
 * loaded on first visit. A menu whose key is not here (or has none) shows the 404 page (SPEC.md §2).
 * Pages generated from entity schemas come first; a hand-written page of the same key (an
 * exception the schema cannot express) replaces it.
 */
export const pageRegistry: Readonly<Record<string, PageLoader>> = {
  ...schemaPages,
  ...dashboardPages,
  ...alarmPages,
  ...fleetPages,
  ...maintenancePages,
  ...operationPages,
  ...statisticsPages,
  ...systemPages,
  ...teamPages,
  ...toolPages,
  // Not a menu page: opened by a path with a vehicle id (session/navigation detailRoute).
  [VEHICLE_DETAIL_KEY]: () => import('./vehicleDetail'),
};

export const pageLoader = (key: string | null): PageLoader | undefined => (key ? pageRegistry[key] : undefined);
