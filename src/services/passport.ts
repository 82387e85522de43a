import type { ResourceItem } from '../../schemas/kit/resourceItem';
import { request } from '@umijs/max';
import type { CallOptions } from './http/headers';

/** The console's calls of SPEC.md §7 to the passport service (base address added by the request config). */

export interface LoginObject {
  token: string;
  uid: string;
  name: string;
  memberType: string;
  id: number;
  branch: string;
  firstSign: boolean;
  memberId?: number;
  memberName?: string;
  orgType?: string | null;
  title?: string | null;
  logo?: string | null;
  themeColor?: string | null;
}

export interface LoginAnswer {
  success: true;
  message: string;
  object: LoginObject;
}

export interface WeakPasswordAnswer {
  success: false;
  code: 'weakPassword';
  message: string;
  object: { weakPassword: true; token: string; uid: string };
}

export interface MessageAnswer {
  success: boolean;
  message: string;
}

export interface CurrentMember {
  memberId: number;
  memberName: string;
  orgType: string | null;
  orgId: number;
  orgName: string;
  loginName: string;
  memberType: string;
  uid: string;
  firstSign: boolean;
}

export type { ResourceItem, ResourceKind } from '../../schemas/kit/resourceItem';

export const APPLICATION = 'obd-web';

type Call = CallOptions & { method: string; data?: unknown };
const call = <T>(url: string, opts: Call) => request<T>(url, opts);

/** Login failures are shown by the login page itself (SPEC.md §8: login rejects with the server message). */
export const login = (loginName: string, password: string) =>
  call<LoginAnswer | WeakPasswordAnswer>('/login', { method: 'POST', data: { loginName, password, application: APPLICATION }, skipErrorHandler: true });

export const logout = () => call<void>('/logout', { method: 'POST', quiet: true, skipErrorHandler: true });

export const currentMember = () => call<CurrentMember>('/passport/member/current', { method: 'GET' });

export const changePassword = (body: { oldPassword: string; newPassword: string; uid: string }, token?: string) =>
  call<MessageAnswer>('/passport/member/change-password', { method: 'POST', data: body, token, skipErrorHandler: true });

export const authorizedResources = (application: string = APPLICATION) =>
  call<ResourceItem[]>(`/passport/resource/authorized/${application}`, { method: 'GET', skipErrorHandler: true });

export interface SimulateLoginAnswer {
  success: boolean;
  message: string;
  object: Omit<LoginObject, 'memberId' | 'memberName' | 'orgType'>;
}

export const simulateLogin = (memberId: number) => call<SimulateLoginAnswer>(`/passport/member/${memberId}/simulate-login`, { method: 'POST' });

export const simulateLogout = () => call<MessageAnswer>('/passport/member/simulate-logout', { method: 'POST' });
