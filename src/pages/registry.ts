import type { ComponentType } from 'react';

/**
 * Page components by the resource `url` key the server's menu carries (e.g. `system/role`), each
 * loaded on first visit. A menu whose key is not here (or has none) shows the 404 page (SPEC.md §2).
 * Pages register here as they are written.
 */
export type PageModule = { default: ComponentType };
export type PageLoader = () => Promise<PageModule>;

export const pageRegistry: Readonly<Record<string, PageLoader>> = {};

export const pageLoader = (key: string | null): PageLoader | undefined => (key ? pageRegistry[key] : undefined);
