import { decide, isPublicPath, safeRedirect } from '../../../src/session/guard';

const base = { hasToken: false, menusReady: false, autoLoginPending: false };

describe('route guard (SPEC.md §2)', () => {
  it('lets only public paths through without a token', () => {
    for (const p of ['/login', '/404', '/password/weak', '/login/admin/pw', '/location/abc'])
      expect(decide({ ...base, path: p })).toEqual({ kind: 'allow' });
    expect(decide({ ...base, path: '/system/role' })).toEqual({ kind: 'toLogin', redirect: '/system/role' });
    expect(decide({ ...base, path: '/' })).toEqual({ kind: 'toLogin', redirect: null });
    expect(decide({ ...base, path: '/403' })).toMatchObject({ kind: 'toLogin' });
    expect(isPublicPath('/loginx')).toBe(false);
  });

  it('sends a signed-in user from /login home, unless credentials were just handed over', () => {
    expect(decide({ ...base, hasToken: true, path: '/login' })).toEqual({ kind: 'toHome' });
    expect(decide({ ...base, hasToken: true, path: '/login', autoLoginPending: true })).toEqual({ kind: 'allow' });
  });

  it('loads the menus before any other page', () => {
    expect(decide({ ...base, hasToken: true, path: '/system/role' })).toEqual({ kind: 'loadMenus' });
    expect(decide({ ...base, hasToken: true, menusReady: true, path: '/system/role' })).toEqual({ kind: 'allow' });
    expect(decide({ ...base, hasToken: true, path: '/404' })).toEqual({ kind: 'allow' });
  });

  it('follows only same-site redirects after login', () => {
    expect(safeRedirect('/system/role?x=1')).toBe('/system/role?x=1');
    for (const r of ['//evil.com', 'https://evil.com', null, '', '/login/a/b']) expect(safeRedirect(r)).toBe('/');
  });
});
