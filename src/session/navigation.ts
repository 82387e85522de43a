import type { ResourceItem } from '../services/passport';

/**
 * The authorised resource tree turned into what the shell navigates by (SPEC.md §2): Menu items
 * become routes and sidebar entries, Action items become permission codes.
 */

export interface MenuRoute {
  /** Absolute route path, e.g. `/system/role`. */
  path: string;
  /** Route name: the resource code. */
  name: string;
  title: string;
  icon: string | null;
  /** Page key of the registry (`system/role`); null → the 404 page. */
  pageKey: string | null;
  hidden: boolean;
  affix: boolean;
  noCache: boolean;
  /** Sidebar entry to highlight instead of this one (for hidden detail pages). */
  activeMenu: string | null;
  /** Titles from the top-level menu down to this one. */
  breadcrumb: string[];
}

/** A top-level menu without sub-menus is hosted under `/SingleMenu{path}` (SPEC.md §2). */
export interface SingleMenuWrapper {
  path: string;
  redirect: string;
}

export interface MenuNode {
  path: string;
  title: string;
  icon: string | null;
  children?: MenuNode[];
}

export interface Navigation {
  routes: MenuRoute[];
  wrappers: SingleMenuWrapper[];
  /** Sidebar tree, hidden entries left out. */
  menus: MenuNode[];
  permissions: ReadonlySet<string>;
  /** The first menu with a url: where `/` goes. */
  defaultPath: string | null;
}

export const SINGLE_MENU_PREFIX = '/SingleMenu';

export const normalisePath = (p: string): string => {
  const s = ('/' + p).replace(/\/{2,}/g, '/');
  return s.length > 1 ? s.replace(/\/+$/, '') : s;
};

const menusOf = (items: readonly ResourceItem[] | undefined) => (items ?? []).filter((i) => i.kind === 'Menu' && i.path);

/** The title shown for a menu item (the server's name by default). */
export type TitleOf = (item: ResourceItem) => string;

export function buildNavigation(tree: readonly ResourceItem[], titleOf: TitleOf = (i) => i.name): Navigation {
  const routes: MenuRoute[] = [];
  const wrappers: SingleMenuWrapper[] = [];
  const permissions = new Set<string>();

  const collectActions = (items: readonly ResourceItem[] | undefined) => {
    for (const i of items ?? []) {
      if (i.kind === 'Action' && i.code) permissions.add(i.code);
      collectActions(i.children);
    }
  };
  collectActions(tree);

  const walk = (items: readonly ResourceItem[] | undefined, trail: string[]): MenuNode[] => {
    const nodes: MenuNode[] = [];
    for (const i of menusOf(items)) {
      const path = normalisePath(i.path as string);
      const title = titleOf(i);
      const breadcrumb = [...trail, title];
      routes.push({
        path,
        name: i.code,
        title,
        icon: i.icon || null,
        pageKey: i.url || null,
        hidden: Boolean(i.hidden),
        affix: Boolean(i.affix),
        noCache: Boolean(i.noCache),
        activeMenu: i.activeMenu ? normalisePath(i.activeMenu) : null,
        breadcrumb,
      });
      const children = walk(i.children, breadcrumb);
      if (!i.hidden) nodes.push({ path, title, icon: i.icon || null, ...(children.length ? { children } : {}) });
    }
    return nodes;
  };
  const menus = walk(tree, []);

  for (const top of menusOf(tree)) {
    if (menusOf(top.children).length === 0) {
      const path = normalisePath(top.path as string);
      wrappers.push({ path: SINGLE_MENU_PREFIX + path, redirect: path });
    }
  }

  const defaultPath = routes.find((r) => r.pageKey)?.path ?? null;
  return { routes, wrappers, menus, permissions, defaultPath };
}

/** The vehicle detail (SPEC single-equip-info): reached by a path with a numeric id, not from the menu. */
export const VEHICLE_DETAIL_KEY = 'vehicleDetail/vehicleDetail';
const VEHICLE_DETAIL_PATH = /^\/vehicleDetail\/vehicleDetail\/([1-9]\d{0,9})$/;

/** The vehicle id of a detail path; null for anything else (non-numeric, zero, too long). */
export function vehicleDetailId(pathname: string): number | null {
  const m = VEHICLE_DETAIL_PATH.exec(normalisePath(pathname));
  return m ? Number(m[1]) : null;
}

/**
 * A detail path as a hidden route of its own (one tab per vehicle), highlighting the vehicle list;
 * `titleOf` names it in the console's language.
 */
export function detailRoute(nav: Navigation, pathname: string, titleOf: (id: number) => string): MenuRoute | null {
  const id = vehicleDetailId(pathname);
  if (id === null) return staticRoute(nav, pathname);
  const list = nav.routes.find((r) => r.pageKey === 'fleet/vehicleList');
  const title = titleOf(id);
  return {
    path: normalisePath(pathname),
    name: 'vehicleDetail',
    title,
    icon: null,
    pageKey: VEHICLE_DETAIL_KEY,
    hidden: true,
    affix: false,
    noCache: false,
    activeMenu: list?.path ?? null,
    breadcrumb: [...(list?.breadcrumb ?? []), title],
  };
}

/** SPEC's static routes that show a menu page under another path: `/fleet/vehicle` is the fuel view. */
export const STATIC_ROUTES: Readonly<Record<string, string>> = { '/fleet/vehicle': 'statistics/fuel' };

/**
 * A static route as a hidden route of its own, titled and highlighted as the menu page it shows;
 * null when the path is none, or the member is not granted that page.
 */
function staticRoute(nav: Navigation, pathname: string): MenuRoute | null {
  const path = normalisePath(pathname);
  const key = STATIC_ROUTES[path];
  const page = key ? nav.routes.find((r) => r.pageKey === key) : undefined;
  return page ? { ...page, path, name: path.slice(1).replace(/\//g, '-'), hidden: true, affix: false, activeMenu: page.path } : null;
}

export type Resolution = { kind: 'route'; route: MenuRoute } | { kind: 'redirect'; to: string } | { kind: 'notFound' };

/** Where a path leads inside the shell: a menu route, a redirect (`/`, `/SingleMenu…`) or nowhere (→ /404). */
export function resolvePath(nav: Navigation, pathname: string, detailTitle: (id: number) => string = String): Resolution {
  const path = normalisePath(pathname);
  if (path === '/') return nav.defaultPath ? { kind: 'redirect', to: nav.defaultPath } : { kind: 'notFound' };
  const route = nav.routes.find((r) => r.path === path);
  if (route) return { kind: 'route', route };
  const wrapper = nav.wrappers.find((w) => w.path === path);
  if (wrapper) return { kind: 'redirect', to: wrapper.redirect };
  const detail = detailRoute(nav, path, detailTitle);
  if (detail) return { kind: 'route', route: detail };
  return { kind: 'notFound' };
}
