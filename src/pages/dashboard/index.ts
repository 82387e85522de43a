import type { PageLoaders } from '../pageModule';

/** The landing page, by page key. */
export const dashboardPages: PageLoaders = {
  dashboard: () => import('./dashboard'),
};
