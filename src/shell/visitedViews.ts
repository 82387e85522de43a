import type { MenuRoute } from '../session/navigation';
import { createStore, useStore } from '../session/store';
import { onSessionReset } from '../session/sessionReset';

/** Tag tabs of visited pages and the views kept alive (SPEC.md §4). Affix tabs are never closed. */
export interface VisitedView {
  path: string;
  title: string;
  affix: boolean;
  /** Kept alive (mounted, hidden) while its tab is open, unless the menu says noCache. */
  cached: boolean;
}

export interface ViewsState {
  views: VisitedView[];
  /** Bumped per path by "refresh", so the page mounts afresh. */
  generation: Record<string, number>;
}

export const EMPTY_VIEWS: ViewsState = { views: [], generation: {} };

const toView = (r: MenuRoute): VisitedView => ({ path: r.path, title: r.title, affix: r.affix, cached: !r.noCache });

/** Affix routes open first, in menu order. */
export const initViews = (routes: readonly MenuRoute[]): ViewsState => ({
  views: routes.filter((r) => r.affix).map(toView),
  generation: {},
});

export function addView(s: ViewsState, r: MenuRoute): ViewsState {
  if (s.views.some((v) => v.path === r.path)) return s;
  return { ...s, views: [...s.views, toView(r)] };
}

export function closeView(s: ViewsState, path: string): ViewsState {
  const views = s.views.filter((v) => v.path !== path || v.affix);
  return views.length === s.views.length ? s : { ...s, views };
}

export const closeOthers = (s: ViewsState, path: string): ViewsState => ({
  ...s,
  views: s.views.filter((v) => v.affix || v.path === path),
});

export const closeAll = (s: ViewsState): ViewsState => ({ ...s, views: s.views.filter((v) => v.affix) });

export const refreshView = (s: ViewsState, path: string): ViewsState => ({
  ...s,
  generation: { ...s.generation, [path]: (s.generation[path] ?? 0) + 1 },
});

/** Where to go after closing the active tab: the last remaining one, else the default page. */
export const nextPathAfterClose = (s: ViewsState, fallback: string): string => s.views[s.views.length - 1]?.path ?? fallback;

export const viewsStore = createStore<ViewsState>(EMPTY_VIEWS);
export const useViews = (): ViewsState => useStore(viewsStore);
export const resetViews = (): void => viewsStore.set(EMPTY_VIEWS);

// A new member starts with only the affix tabs.
onSessionReset(resetViews);
