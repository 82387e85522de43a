import { currentMember, login, type LoginObject } from '../services/passport';
import { saveSession, saveWeakLogin, type Session } from './session';
import { resetSessionState } from './sessionReset';
import { LOGIN_THEME_COLOR } from './theme';

/** The session stored after a login (SPEC.md §3; no password). */
export function sessionFromLogin(o: LoginObject, loginName: string): Session {
  return {
    token: o.token,
    uid: o.uid,
    id: o.id,
    name: o.name,
    memberType: o.memberType,
    branch: o.branch,
    firstSign: Boolean(o.firstSign),
    loginName,
    memberId: o.memberId ?? o.id,
    memberName: o.memberName ?? o.name,
    orgType: o.orgType ?? null,
    title: o.title ?? null,
    logo: o.logo ?? null,
    themeColor: o.themeColor || LOGIN_THEME_COLOR,
  };
}

export type SignInOutcome = { kind: 'signedIn'; session: Session } | { kind: 'weakPassword'; message: string };

/** POST /login and keep what it returns; a weak password keeps only its one-purpose token. */
export async function signIn(loginName: string, password: string): Promise<SignInOutcome> {
  const r = await login(loginName, password);
  if (!r.success) {
    if (r.object?.weakPassword) {
      saveWeakLogin({ token: r.object.token, uid: r.object.uid, loginName });
      return { kind: 'weakPassword', message: r.message };
    }
    throw Object.assign(new Error(r.message), { serverMessage: r.message });
  }
  let session = sessionFromLogin(r.object, loginName);
  saveSession(session);
  // Older servers omit the member lookup fields: ask for them (SPEC.md §7).
  if (r.object.memberId === undefined) {
    const m = await currentMember();
    session = { ...session, memberId: m.memberId, memberName: m.memberName, orgType: m.orgType };
    saveSession(session);
  }
  resetSessionState();
  return { kind: 'signedIn', session };
}
