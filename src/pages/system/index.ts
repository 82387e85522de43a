import type { PageLoaders } from '../pageModule';

/** Hand-written pages of the system menu area, by page key: the passport's entities have no schema. */
export const systemPages: PageLoaders = {
  'system/org': () => import('./org'),
  'system/role': () => import('./role'),
  'system/account': () => import('./account'),
  'system/appAccount': () => import('./appAccount'),
  'system/menu': () => import('./menu'),
  'system/log': () => import('./log'),
  'system/interMember': () => import('./interMember'),
};
