import type { PageLoaders } from '../pageModule';

/** Hand-written pages of the fleet menu area, by page key. */
export const fleetPages: PageLoaders = {
  'fleet/configParseFile': () => import('./configParseFile'),
};
