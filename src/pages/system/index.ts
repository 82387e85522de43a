import type { PageLoaders } from '../pageModule';

/** Hand-written pages of the system menu area, by page key. */
export const systemPages: PageLoaders = {};
