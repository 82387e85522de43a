/**
 * Credentials from /login/{userName}/{password}, handed to the login page in memory only: the URL is
 * replaced at once and the password never reaches storage or history state.
 */
export interface Credentials {
  loginName: string;
  password: string;
}

let pending: Credentials | null = null;

export const handOver = (c: Credentials): void => {
  pending = c;
};

export const hasPendingLogin = (): boolean => pending !== null;

/** Returns the credentials once. */
export function takePendingLogin(): Credentials | null {
  const c = pending;
  pending = null;
  return c;
}
