import type { LoginObject } from '../services/passport';

/**
 * The signed-in session kept in browser storage (SPEC.md §3), deliberately without the password:
 * only the login name is remembered (DESIGN.md, Security).
 */
export type Session = Omit<LoginObject, 'memberId' | 'memberName' | 'orgType' | 'title' | 'logo' | 'themeColor'> &
  // A session saved before the login answered these, or filled from `member/current` (orgType may be null there).
  Partial<Pick<LoginObject, 'memberId' | 'memberName' | 'title' | 'logo' | 'themeColor'>> & {
    orgType?: string | null;
    /** Remembered for the login form; never the password. */
    loginName: string;
  };

/** What simulate login saves before switching (SPEC.md §4) — the whole session, to restore it. */
export type OriginSession = Session;

/** A login refused for a weak password: the token works only for change-password (SPEC.md §4). */
export interface WeakLogin {
  token: string;
  uid: string;
  loginName: string;
}

const SESSION = 'fleet-star.session';
const ORIGIN = 'fleet-star.origin';
// Where the member was when the simulated login began: leaving it goes back there.
const RETURN_TO = 'fleet-star.origin.returnTo';
const REMEMBERED = 'fleet-star.loginName';
// The weak-password token lives only as long as the tab: it is a one-purpose credential.
const WEAK = 'fleet-star.weakLogin';

function read<T>(store: Storage, key: string): T | null {
  try {
    const raw = store.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

export const saveSession = (s: Session): void => localStorage.setItem(SESSION, JSON.stringify(s));
export const loadSession = (): Session | null => read<Session>(localStorage, SESSION);
export const getToken = (): string | null => loadSession()?.token ?? null;

export function updateSession(patch: Partial<Session>): void {
  const s = loadSession();
  if (s) saveSession({ ...s, ...patch });
}

export const saveOrigin = (s: OriginSession): void => localStorage.setItem(ORIGIN, JSON.stringify(s));
export const loadOrigin = (): OriginSession | null => read<OriginSession>(localStorage, ORIGIN);
export const isImpersonating = (): boolean => loadOrigin() !== null;
export const saveReturnTo = (path: string): void => localStorage.setItem(RETURN_TO, path);
export const loadReturnTo = (): string | null => localStorage.getItem(RETURN_TO);

export const rememberLoginName = (name: string): void => localStorage.setItem(REMEMBERED, name);
export const forgetLoginName = (): void => localStorage.removeItem(REMEMBERED);
export const rememberedLoginName = (): string => localStorage.getItem(REMEMBERED) ?? '';

// A success message to show once the page has loaded again: the reload would wipe it first.
const NOTICE = 'fleet-star.notice';
export const saveNotice = (text: string): void => sessionStorage.setItem(NOTICE, text);
/** The message saved before the reload, once (it is forgotten as it is read). */
export function takeNotice(): string | null {
  const text = sessionStorage.getItem(NOTICE);
  sessionStorage.removeItem(NOTICE);
  return text;
}

export const saveWeakLogin = (w: WeakLogin): void => sessionStorage.setItem(WEAK, JSON.stringify(w));
export const loadWeakLogin = (): WeakLogin | null => read<WeakLogin>(sessionStorage, WEAK);
export const clearWeakLogin = (): void => sessionStorage.removeItem(WEAK);

/** Logged out: every stored session value goes (the remembered login name and settings stay). */
export function clearSession(): void {
  localStorage.removeItem(SESSION);
  localStorage.removeItem(ORIGIN);
  localStorage.removeItem(RETURN_TO);
  clearWeakLogin();
}

/** Simulate logout: back to the saved origin session. */
export function restoreOrigin(): boolean {
  const origin = loadOrigin();
  if (!origin) return false;
  saveSession(origin);
  localStorage.removeItem(ORIGIN);
  localStorage.removeItem(RETURN_TO);
  return true;
}
