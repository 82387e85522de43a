import type { ResourceItem } from '../../../src/services/passport';
import { buildNavigation, normalisePath, resolvePath, vehicleDetailId, VEHICLE_DETAIL_KEY } from '../../../src/session/navigation';

let nextId = 1;
function menu(
  name: string,
  path: string,
  url: string | null,
  children: ResourceItem[] = [],
  extra: Partial<ResourceItem> = {},
): ResourceItem {
  return {
    id: nextId++,
    name,
    kind: 'Menu',
    code: path.split('/').filter(Boolean).join('-') || 'root',
    path,
    url,
    icon: null,
    sort: 0,
    parentId: null,
    hidden: false,
    affix: false,
    noCache: false,
    activeMenu: null,
    children,
    ...extra,
  };
}
const action = (code: string): ResourceItem => ({ ...menu(code, '', null), kind: 'Action', code, path: null });

const tree: ResourceItem[] = [
  menu('首页', '/dashboard', 'dashboard', [], { affix: true, icon: 'DashboardOutlined' }),
  menu('系统管理', '/system', null, [
    menu('角色管理', '/system/role', 'system/role', [action('role-add'), action('role-edit')]),
    menu('组织管理', '/system/org', 'system/org', [action('org-add')]),
    menu('组织详情', '/system/org/detail', 'system/orgDetail', [], { hidden: true, activeMenu: '/system/org' }),
    menu('日志', '/system/log', null),
  ]),
  menu('车辆', '/vehicle', 'fleet/vehicle', [action('vehicle-add')]),
];

describe('navigation from the resource tree (SPEC.md §2)', () => {
  const nav = buildNavigation(tree);

  it('turns Menu items into routes named by code, and Action items into permissions', () => {
    expect(nav.routes.map((r) => r.path)).toEqual([
      '/dashboard',
      '/system',
      '/system/role',
      '/system/org',
      '/system/org/detail',
      '/system/log',
      '/vehicle',
    ]);
    expect(nav.routes.find((r) => r.path === '/system/role')).toMatchObject({
      name: 'system-role',
      title: '角色管理',
      pageKey: 'system/role',
      breadcrumb: ['系统管理', '角色管理'],
    });
    expect([...nav.permissions].sort()).toEqual(['org-add', 'role-add', 'role-edit', 'vehicle-add']);
  });

  it('keeps hidden items routable but out of the sidebar, with their flags', () => {
    const detail = nav.routes.find((r) => r.path === '/system/org/detail')!;
    expect(detail).toMatchObject({ hidden: true, activeMenu: '/system/org' });
    expect(nav.menus[1].children!.map((m) => m.path)).toEqual(['/system/role', '/system/org', '/system/log']);
    expect(nav.routes[0]).toMatchObject({ affix: true, icon: 'DashboardOutlined' });
  });

  it('wraps top-level menus without sub-menus under /SingleMenu', () => {
    expect(nav.wrappers).toEqual([
      { path: '/SingleMenu/dashboard', redirect: '/dashboard' },
      { path: '/SingleMenu/vehicle', redirect: '/vehicle' },
    ]);
    expect(resolvePath(nav, '/SingleMenu/vehicle')).toEqual({ kind: 'redirect', to: '/vehicle' });
  });

  it('sends / to the first menu with a url, and unknown paths nowhere', () => {
    expect(nav.defaultPath).toBe('/dashboard');
    expect(resolvePath(nav, '/')).toEqual({ kind: 'redirect', to: '/dashboard' });
    expect(resolvePath(nav, '/nope')).toEqual({ kind: 'notFound' });
    expect(resolvePath(nav, '/system/role/')).toMatchObject({ kind: 'route', route: { path: '/system/role' } });
  });

  it('routes a menu without url to no page (the 404 page)', () => {
    expect(resolvePath(nav, '/system/log')).toMatchObject({ kind: 'route', route: { pageKey: null } });
  });

  it('has no default page when no menu has a url', () => {
    const empty = buildNavigation([menu('系统', '/system', null)]);
    expect(empty.defaultPath).toBeNull();
    expect(resolvePath(empty, '/')).toEqual({ kind: 'notFound' });
  });

  it('finds the default page depth first', () => {
    expect(
      buildNavigation([
        menu('系统', '/system', null, [menu('角色', '/system/role', 'system/role')]),
        menu('车辆', '/vehicle', 'fleet/vehicle'),
      ]).defaultPath,
    ).toBe('/system/role');
  });

  it('normalises paths', () => {
    expect(normalisePath('system//role/')).toBe('/system/role');
    expect(normalisePath('/')).toBe('/');
  });

  it('opens the vehicle detail for numeric ids only, as a hidden route of its own under the vehicle list', () => {
    const withList = buildNavigation([...tree, menu('车辆列表', '/fleet/vehicleList', 'fleet/vehicleList')]);
    const r = resolvePath(withList, '/vehicleDetail/vehicleDetail/12/', (id) => `车辆 ${id}`);
    expect(r).toEqual({
      kind: 'route',
      route: expect.objectContaining({
        path: '/vehicleDetail/vehicleDetail/12',
        pageKey: VEHICLE_DETAIL_KEY,
        title: '车辆 12',
        hidden: true,
        activeMenu: '/fleet/vehicleList',
      }),
    });
    for (const bad of [
      '/vehicleDetail/vehicleDetail/abc',
      '/vehicleDetail/vehicleDetail/0',
      '/vehicleDetail/vehicleDetail/012',
      '/vehicleDetail/vehicleDetail/1e3',
      '/vehicleDetail/vehicleDetail/12345678901',
      '/vehicleDetail/vehicleDetail',
      '/vehicleDetail/vehicleDetail/1/2',
    ]) {
      expect(resolvePath(withList, bad)).toEqual({ kind: 'notFound' });
      expect(vehicleDetailId(bad)).toBeNull();
    }
    expect(vehicleDetailId('/vehicleDetail/vehicleDetail/2147483647')).toBe(2147483647);
  });

  it("serves SPEC's static /fleet/vehicle as the fuel page, highlighted under it, only to members granted that page", () => {
    const withFuel = buildNavigation([menu('统计', '/statistics', null, [menu('油耗统计', '/statistics/fuel', 'statistics/fuel')])]);
    expect(resolvePath(withFuel, '/fleet/vehicle/')).toEqual({
      kind: 'route',
      route: expect.objectContaining({
        path: '/fleet/vehicle',
        pageKey: 'statistics/fuel',
        title: '油耗统计',
        hidden: true,
        activeMenu: '/statistics/fuel',
        breadcrumb: ['统计', '油耗统计'],
      }),
    });
    expect(resolvePath(buildNavigation(tree), '/fleet/vehicle')).toEqual({ kind: 'notFound' });
  });
});
