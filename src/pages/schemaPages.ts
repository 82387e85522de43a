import type { PageLoaders } from './pageModule';

/** Pages rendered from entity schemas, by page key. */
export const schemaPages: PageLoaders = {};
