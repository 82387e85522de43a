import type { MenuRoute } from '../../../src/session/navigation';
import {
  addView,
  closeAll,
  closeOthers,
  closeView,
  EMPTY_VIEWS,
  initViews,
  nextPathAfterClose,
  refreshView,
} from '../../../src/shell/visitedViews';

const route = (path: string, extra: Partial<MenuRoute> = {}): MenuRoute => ({
  path,
  name: path,
  title: path.slice(1),
  icon: null,
  pageKey: path.slice(1),
  hidden: false,
  affix: false,
  noCache: false,
  activeMenu: null,
  breadcrumb: [],
  ...extra,
});
const home = route('/home', { affix: true });
const a = route('/a');
const b = route('/b', { noCache: true });
const c = route('/c');

describe('visited views (tag tabs)', () => {
  const opened = [a, b, c].reduce(addView, initViews([home, a, b, c]));

  it('start with the affix tabs and add each page once', () => {
    expect(initViews([home, a]).views.map((v) => v.path)).toEqual(['/home']);
    expect(addView(opened, a)).toBe(opened);
    expect(opened.views.map((v) => [v.path, v.cached])).toEqual([
      ['/home', true],
      ['/a', true],
      ['/b', false],
      ['/c', true],
    ]);
  });

  it('never close an affix tab', () => {
    expect(closeView(opened, '/home')).toBe(opened);
    expect(closeView(opened, '/b').views.map((v) => v.path)).toEqual(['/home', '/a', '/c']);
    expect(closeOthers(opened, '/b').views.map((v) => v.path)).toEqual(['/home', '/b']);
    expect(closeAll(opened).views.map((v) => v.path)).toEqual(['/home']);
  });

  it('go to the last remaining tab after closing the active one, else the default', () => {
    expect(nextPathAfterClose(closeView(opened, '/c'), '/x')).toBe('/b');
    expect(nextPathAfterClose(EMPTY_VIEWS, '/x')).toBe('/x');
  });

  it('count refreshes per path so a view remounts', () => {
    const once = refreshView(opened, '/a');
    expect(refreshView(once, '/a').generation).toEqual({ '/a': 2 });
  });
});
