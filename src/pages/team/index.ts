import type { PageLoaders } from '../pageModule';

/** Hand-written pages of the team monitoring menu area, by page key. */
export const teamPages: PageLoaders = {
  'team/breakRules': () => import('./breakRules'),
  'team/orderSchedule': () => import('./orderSchedule'),
};
