import type { ComponentType } from 'react';

/** A console page: a module whose default export is the page component, loaded on first visit. */
export type PageModule = { default: ComponentType };
export type PageLoader = () => Promise<PageModule>;
export type PageLoaders = Readonly<Record<string, PageLoader>>;
