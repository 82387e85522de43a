import { lazy, Suspense, useRef, type ComponentType, type LazyExoticComponent } from 'react';
import { Spin } from 'antd';
import { pageLoader } from '../pages/registry';
import NotFound from '../pages/404';
import type { MenuRoute } from '../session/navigation';
import { useViews } from './visitedViews';
import { ViewRouteContext } from './viewRoute';

const lazyPages = new Map<string, LazyExoticComponent<ComponentType>>();

/** The page of a menu route: its registered component, loaded once, else the 404 page. */
function pageOf(route: MenuRoute): ComponentType {
  const loader = pageLoader(route.pageKey);
  if (!loader || !route.pageKey) return NotFound;
  let C = lazyPages.get(route.pageKey);
  if (!C) {
    C = lazy(loader);
    lazyPages.set(route.pageKey, C);
  }
  return C;
}

export interface ViewHostProps {
  active: MenuRoute | null;
  routes: readonly MenuRoute[];
}

/**
 * Renders the active page and keeps the other cached views mounted but hidden (keep-alive), so a
 * tab comes back as it was left; closing a tab unmounts its view, and refresh remounts it.
 */
export default function ViewHost({ active, routes }: ViewHostProps) {
  const { views, generation } = useViews();
  // Views mount on their first visit only, not when an affix tab is merely listed.
  const visited = useRef(new Set<string>());
  if (active) visited.current.add(active.path);
  const open = new Set(views.map((v) => v.path));
  for (const p of [...visited.current]) if (!open.has(p) && p !== active?.path) visited.current.delete(p);

  const mounted = routes.filter((r) => r.path === active?.path || (open.has(r.path) && !r.noCache && visited.current.has(r.path)));
  return (
    <>
      {mounted.map((r) => {
        const Page = pageOf(r);
        const shown = r.path === active?.path;
        return (
          <div key={`${r.path}#${generation[r.path] ?? 0}`} style={shown ? undefined : { display: 'none' }} data-view={r.path}>
            <ViewRouteContext.Provider value={r}>
              <Suspense fallback={<Spin style={{ display: 'block', margin: '48px auto' }} />}>
                <Page />
              </Suspense>
            </ViewRouteContext.Provider>
          </div>
        );
      })}
    </>
  );
}
