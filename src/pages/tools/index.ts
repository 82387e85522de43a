import type { PageLoaders } from '../pageModule';

/** Hand-written pages of the tools menu area, by page key. */
export const toolPages: PageLoaders = {
  'tools/jt808': () => import('./jt808'),
  'tools/labels': () => import('./labels'),
};
