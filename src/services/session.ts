/**
 * The signed-in session kept in browser storage (SPEC.md §3), deliberately without the password:
 * only the login name is remembered.
 */
export interface Session {
  token: string;
  uid: string;
  id: number;
  name: string;
  memberType: string;
  branch: string;
  firstSign: boolean;
  loginName: string;
}

const KEY = 'fleet-star.session';

export function saveSession(s: Session): void {
  localStorage.setItem(KEY, JSON.stringify(s));
}

export function loadSession(): Session | null {
  try {
    const raw = localStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as Session) : null;
  } catch {
    return null;
  }
}

export function clearSession(): void {
  localStorage.removeItem(KEY);
}
