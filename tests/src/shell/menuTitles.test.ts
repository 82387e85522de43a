import { catalogues } from '../../../schemas/kit/catalogue';
import type { ResourceItem } from '../../../src/services/passport';
import { menuTitles } from '../../../src/shell/menuTitles';
import { buildNavigation } from '../../../src/shell/navigation';

const item = (code: string, name: string): ResourceItem => ({ id: 1, name, kind: 'Menu', code, path: '/' + code, url: null, icon: null, sort: 0, parentId: null, hidden: false, affix: false, noCache: false, activeMenu: null });

describe('menu titles in the chosen language', () => {
  it('translate seeded menus whose name is unchanged', () => {
    const en = menuTitles(catalogues['en-US']);
    expect(en(item('system-role', '角色管理'))).toBe('Roles');
    expect(menuTitles(catalogues['ja-JP'])(item('system-role', '角色管理'))).toBe('ロール');
  });

  it("keep an administrator's renamed or added menu as the server names it", () => {
    const en = menuTitles(catalogues['en-US']);
    expect(en(item('system-role', '权限角色'))).toBe('权限角色');
    expect(en(item('custom-page', '自定义'))).toBe('自定义');
  });

  it('flow into routes, breadcrumbs and the sidebar', () => {
    const nav = buildNavigation([{ ...item('system', '系统管理'), children: [{ ...item('system-role', '角色管理'), path: '/system/role' }] }], menuTitles(catalogues['es-ES']));
    expect(nav.routes[1]).toMatchObject({ title: 'Roles', breadcrumb: ['Sistema', 'Roles'] });
    expect(nav.menus[0].title).toBe('Sistema');
  });
});
