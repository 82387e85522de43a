import type { PageLoaders } from '../pageModule';

/** Hand-written pages of the alarm centre, by page key. */
export const alarmPages: PageLoaders = {
  'alarm/ai': () => import('./ai'),
  'alarm/obd': () => import('./obd'),
  'alarm/fence': () => import('./fence'),
  'alarm/terminal': () => import('./terminal'),
  'alarm/safety': () => import('./safety'),
  'alarm/all': () => import('./all'),
};
