import {
  clearSession,
  isImpersonating,
  loadSession,
  loadWeakLogin,
  rememberedLoginName,
  rememberLoginName,
  restoreOrigin,
  saveOrigin,
  saveSession,
  saveWeakLogin,
  type Session,
} from '../../../src/session/session';

const admin: Session = {
  token: 't1',
  uid: 'u1',
  id: 1,
  name: '管理员',
  memberType: 'administrator',
  branch: 'ROOT',
  firstSign: false,
  loginName: 'admin',
  themeColor: '#0c3467',
};

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('session storage', () => {
  it('round-trips the session', () => {
    saveSession(admin);
    expect(loadSession()).toEqual(admin);
  });

  it('survives garbage in storage', () => {
    localStorage.setItem('fleet-star.session', '{not json');
    expect(loadSession()).toBeNull();
  });

  it('clears the session, origin and weak token but keeps the remembered login name', () => {
    saveSession(admin);
    saveOrigin(admin);
    saveWeakLogin({ token: 'w', uid: 'u', loginName: 'x' });
    rememberLoginName('admin');
    clearSession();
    expect(loadSession()).toBeNull();
    expect(isImpersonating()).toBe(false);
    expect(loadWeakLogin()).toBeNull();
    expect(rememberedLoginName()).toBe('admin');
  });

  it('restores the origin session after a simulated login', () => {
    saveOrigin(admin);
    saveSession({ ...admin, token: 't2', name: '张三', themeColor: '#ffffff' });
    expect(isImpersonating()).toBe(true);
    expect(restoreOrigin()).toBe(true);
    expect(loadSession()).toEqual(admin);
    expect(isImpersonating()).toBe(false);
    expect(restoreOrigin()).toBe(false);
  });

  it('keeps the weak-password token in the tab only', () => {
    saveWeakLogin({ token: 'w', uid: 'u', loginName: 'x' });
    expect(loadWeakLogin()).toEqual({ token: 'w', uid: 'u', loginName: 'x' });
    expect(Object.keys(localStorage)).toEqual([]);
  });
});
