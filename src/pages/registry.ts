import type { PageLoader } from './pageModule';
import { fleetPages } from './fleet';
import { schemaPages } from './schemaPages';
import { systemPages } from './system';
import { toolPages } from './tools';

export type { PageLoader, PageModule } from './pageModule';

/**
 * Page components by the resource `url` key the server's menu carries (e.g. `system/role`), each
 * loaded on first visit. A menu whose key is not here (or has none) shows the 404 page (SPEC.md §2).
 * Pages generated from entity schemas come first; a hand-written page of the same key (an
 * exception the schema cannot express) replaces it.
 */
export const pageRegistry: Readonly<Record<string, PageLoader>> = { ...schemaPages, ...fleetPages, ...systemPages, ...toolPages };

export const pageLoader = (key: string | null): PageLoader | undefined => (key ? pageRegistry[key] : undefined);
