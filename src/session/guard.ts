/** The route guard of SPEC.md §2 as a decision, so the rules are testable without a browser. */
export const PUBLIC_ROUTES: readonly string[] = ['/login', '/404', '/password/weak'];

export const isPublicPath = (path: string): boolean =>
  PUBLIC_ROUTES.includes(path) || path.startsWith('/login/') || path.startsWith('/location/');

export type GuardDecision = { kind: 'allow' } | { kind: 'toLogin'; redirect: string | null } | { kind: 'toHome' } | { kind: 'loadMenus' };

export interface GuardInput {
  path: string;
  hasToken: boolean;
  menusReady: boolean;
  /** /login/{u}/{p} handed credentials to /login: let it sign in even with a token. */
  autoLoginPending: boolean;
}

export function decide({ path, hasToken, menusReady, autoLoginPending }: GuardInput): GuardDecision {
  if (!hasToken) return isPublicPath(path) ? { kind: 'allow' } : { kind: 'toLogin', redirect: path === '/' ? null : path };
  if (path === '/login' && !autoLoginPending) return { kind: 'toHome' };
  if (isPublicPath(path)) return { kind: 'allow' };
  return menusReady ? { kind: 'allow' } : { kind: 'loadMenus' };
}

/** Only same-site paths are followed after login (never `//host` or a full URL). */
export const safeRedirect = (r: string | null | undefined): string =>
  r && r.startsWith('/') && !r.startsWith('//') && !r.startsWith('/login') ? r : '/';
