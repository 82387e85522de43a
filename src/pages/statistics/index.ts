import type { PageLoaders } from '../pageModule';

/** Hand-written pages of the statistics menu area, by page key. */
export const statisticsPages: PageLoaders = {
  'statistics/daily': () => import('./daily'),
  'statistics/driver': () => import('./driver'),
  'statistics/fuel': () => import('./fuel'),
  'statistics/cost': () => import('./cost'),
  'statistics/health': () => import('./health'),
  'statistics/safety': () => import('./safety'),
  'statistics/safetyExplain': () => import('./safetyExplain'),
  'statistics/reportSchedule': () => import('./reportSchedule'),
};
