import { getLocale } from '@umijs/max';
import { loadSession, type Session } from './session';

export interface ApiError {
  status: number;
  message: string;
  errors?: Array<{ field: string; message: string }>;
}

/** JSON call to the API with the session's token and the console's language. */
export async function api<T>(method: string, url: string, body?: unknown): Promise<T> {
  const session = loadSession();
  const res = await fetch('/api' + url, {
    method,
    headers: {
      'content-type': 'application/json',
      'accept-language': getLocale(),
      'x-application-code': 'obd-web',
      ...(session ? { authorization: `Bearer ${session.token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const data = text ? JSON.parse(text) : undefined;
  if (!res.ok) throw { status: res.status, message: data?.message ?? res.statusText, errors: data?.errors } as ApiError;
  return data as T;
}

export interface LoginAnswer {
  success: boolean;
  message: string;
  object: Omit<Session, 'loginName'>;
}

export const login = (loginName: string, password: string) =>
  api<LoginAnswer>('POST', '/login', { loginName, password, application: 'obd-web' });
