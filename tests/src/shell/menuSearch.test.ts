import type { MenuRoute } from '../../../src/session/navigation';
import { menuSearch, searchEntries } from '../../../src/shell/menuSearch';

const route = (path: string, breadcrumb: string[], extra: Partial<MenuRoute> = {}): MenuRoute => ({
  path,
  name: path,
  title: breadcrumb[breadcrumb.length - 1],
  icon: null,
  pageKey: path.slice(1),
  hidden: false,
  affix: false,
  noCache: false,
  activeMenu: null,
  breadcrumb,
  ...extra,
});

const routes = [
  route('/system/role', ['System', 'Role management']),
  route('/system/org', ['System', 'Organisations']),
  route('/fleet/vehicle', ['Fleet', 'Vehicles']),
  route('/fleet/secret', ['Fleet', 'Secret detail'], { hidden: true }),
  route('/fleet', ['Fleet'], { pageKey: null }),
];

describe('header search', () => {
  const search = menuSearch(searchEntries(routes));

  it('finds a menu by a misspelt title', () => {
    expect(search('Vehicels')[0]?.path).toBe('/fleet/vehicle');
    expect(search('Organisatons')[0]?.path).toBe('/system/org');
  });

  it('matches paths too and shows the title trail', () => {
    expect(search('role')[0]).toEqual({ path: '/system/role', title: 'System > Role management' });
  });

  it('leaves out hidden entries and menus without a page', () => {
    expect(searchEntries(routes).map((e) => e.path)).toEqual(['/system/role', '/system/org', '/fleet/vehicle']);
  });

  it('returns nothing for an empty query or nonsense', () => {
    expect(search('  ')).toEqual([]);
    expect(search('zzzzqqqq')).toEqual([]);
  });
});
