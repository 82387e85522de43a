import type { PageLoaders } from '../pageModule';

/** Hand-written pages of the maintenance menu area, by page key (its schema pages come from schemaPages). */
export const maintenancePages: PageLoaders = {
  'maintenance/status': () => import('./status'),
};
