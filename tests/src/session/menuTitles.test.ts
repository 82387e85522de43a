import { catalogues } from '../../../schemas/kit/catalogue';
import { LANGUAGES } from '../../../schemas/kit/i18n';
import { MENUS, type ResourceFixture } from '../../../server/seed/menu';
import type { ResourceItem } from '../../../src/services/passport';
import { menuTitles } from '../../../src/session/menuTitles';
import { buildNavigation } from '../../../src/session/navigation';

const item = (code: string, name: string): ResourceItem => ({
  id: 1,
  name,
  kind: 'Menu',
  code,
  path: '/' + code,
  url: null,
  icon: null,
  sort: 0,
  parentId: null,
  hidden: false,
  affix: false,
  noCache: false,
  activeMenu: null,
});

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
    const nav = buildNavigation(
      [{ ...item('system', '系统管理'), children: [{ ...item('system-role', '角色管理'), path: '/system/role' }] }],
      menuTitles(catalogues['es-ES']),
    );
    expect(nav.routes[1]).toMatchObject({ title: 'Roles', breadcrumb: ['Sistema', 'Roles'] });
    expect(nav.menus[0].title).toBe('Sistema');
  });

  it('fall back to the entity title for schema pages, which have no menu key', () => {
    const page = { ...item('fleet-task', '任务'), url: 'fleet/task' };
    expect(menuTitles(catalogues['en-US'])(page)).toBe('Tasks');
    expect(menuTitles(catalogues['en-US'])({ ...page, name: '运输任务' })).toBe('运输任务');
  });

  it.each(LANGUAGES.filter((l) => l !== 'zh-CN'))('name every seeded menu in %s, none left in Chinese', (lang) => {
    const titleOf = menuTitles(catalogues[lang]);
    const untranslated: string[] = [];
    const walk = (items: readonly ResourceFixture[]) => {
      for (const r of items) {
        if (r.kind !== 'Menu') continue;
        const title = titleOf({ ...item(r.code, r.name), url: r.url ?? null });
        // Japanese shares characters with Chinese (通知 is both): there, the title must be the language's own word.
        const own = lang === 'ja-JP' ? title !== r.name || catalogues[lang][`menu.${r.code}`] === title : !/\p{Script=Han}/u.test(title);
        if (!own) untranslated.push(`${r.code}: ${title}`);
        walk(r.children ?? []);
      }
    };
    walk(MENUS['obd-web']);
    expect(untranslated).toEqual([]);
  });
});
