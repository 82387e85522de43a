import { history } from '@umijs/max';
import { currentMember, logout, simulateLogin, simulateLogout } from '../services/passport';
import {
  clearSession,
  isImpersonating,
  loadOrigin,
  loadReturnTo,
  loadSession,
  restoreOrigin,
  saveNotice,
  saveOrigin,
  saveReturnTo,
  saveSession,
} from './session';
import { resetSessionState } from './sessionReset';
import { sessionFromLogin } from './signIn';
import { IMPERSONATION_THEME_COLOR } from './theme';

/** Logged out (SPEC.md §4): stored session, menus, action permissions and tabs all go. */
export function forgetSession(): void {
  clearSession();
  resetSessionState();
}

/** Log out: revoke the token on the server (best effort), forget everything, go to /login. */
export async function signOut(): Promise<void> {
  try {
    await logout();
  } catch {
    // Already expired or revoked: nothing left to revoke.
  }
  forgetSession();
  history.replace('/login');
}

/** Simulate login as another member (SPEC.md §4): save the origin, switch, clear menus and tabs. */
export async function impersonate(memberId: number): Promise<void> {
  const current = loadSession();
  if (!current) return;
  const r = await simulateLogin(memberId);
  // A nested switch keeps the first origin: simulate logout returns to the real member, where they were.
  if (!isImpersonating()) {
    saveOrigin(current);
    saveReturnTo(window.location.pathname + window.location.search);
  }
  const o = r.object;
  saveSession({
    ...sessionFromLogin(o, ''),
    firstSign: false,
    title: o.title ?? loadOrigin()?.title ?? null,
    logo: o.logo ?? loadOrigin()?.logo ?? null,
    themeColor: o.themeColor || IMPERSONATION_THEME_COLOR,
  });
  const m = await currentMember();
  saveSession({ ...loadSession()!, memberId: m.memberId, memberName: m.memberName, orgType: m.orgType, loginName: m.loginName });
  resetSessionState();
  window.location.assign('/');
}

/**
 * Simulate logout: the server ends the switch; restore the origin and go back to where the member
 * was, where the server's message shows (kept across the reload rather than shown for a moment
 * before it).
 */
export async function endImpersonation(fallbackMessage: string): Promise<void> {
  const r = await simulateLogout();
  saveNotice(r.message || fallbackMessage);
  const back = loadReturnTo();
  restoreOrigin();
  resetSessionState();
  // Only a path of this console (never another site), else the start page.
  window.location.assign(back?.startsWith('/') && !back.startsWith('//') ? back : '/');
}
