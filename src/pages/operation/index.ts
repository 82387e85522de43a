import type { PageLoaders } from '../pageModule';

/** Hand-written pages of the operations menu area, by page key (each replaces the generic schema page). */
export const operationPages: PageLoaders = {
  'operation/apiUser': () => import('./apiUser'),
  'operation/feedback': () => import('./feedback'),
  'operation/subscription': () => import('./subscription'),
  'operation/forwarding': () => import('./forwarding'),
};
