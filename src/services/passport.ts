import type { RoleMisassignment } from '../../schemas/kit/roleMisassignment';
import type { ResourceItem } from '../../schemas/kit/resourceItem';
import type { Member as MemberEntity, Organisation, Role as RoleEntity } from '../../schemas/generated/types';
import type { CurrentMember, SessionAnswer, SessionObject, WeakPasswordAnswer } from '../../schemas/kit/loginSchema';
import { call } from './http/call';

/** The console's calls of SPEC.md §7 to the passport service (base address added by the request config). */

/** A session's `object` (SPEC §3), as the login and the simulated login answer it. */
export type LoginObject = SessionObject;

export type LoginAnswer = SessionAnswer;

export type { WeakPasswordAnswer };

export interface MessageAnswer {
  success: boolean;
  message: string;
}

export type { CurrentMember };

export type { ResourceItem, ResourceKind } from '../../schemas/kit/resourceItem';

export const APPLICATION = 'obd-web';

/** Login failures are shown by the login page itself (SPEC.md §8: login rejects with the server message). */
export const login = (loginName: string, password: string) =>
  call<LoginAnswer | WeakPasswordAnswer>('/login', {
    method: 'POST',
    data: { loginName, password, application: APPLICATION },
    skipErrorHandler: true,
  });

export const logout = () => call<void>('/logout', { method: 'POST', quiet: true, skipErrorHandler: true });

export const currentMember = () => call<CurrentMember>('/passport/member/current', { method: 'GET' });

export const changePassword = (body: { oldPassword: string; newPassword: string; uid: string }, token?: string) =>
  call<MessageAnswer>('/passport/member/change-password', { method: 'POST', data: body, token, skipErrorHandler: true });

export const authorizedResources = (application: string = APPLICATION) =>
  call<ResourceItem[]>(`/passport/resource/authorized/${application}`, { method: 'GET', skipErrorHandler: true });

export const simulateLogin = (memberId: number) => call<SessionAnswer>(`/passport/member/${memberId}/simulate-login`, { method: 'POST' });

export const simulateLogout = () => call<MessageAnswer>('/passport/member/simulate-logout', { method: 'POST' });

/* ---- System administration (SPEC.md §7 organisations, roles, resources, accounts; the audit log) ---- */

/** The paging body of SPEC.md §3. */
export interface PagingBody {
  criteria?: Record<string, unknown>;
  order?: { direction: 'ASC' | 'DESC'; property: string };
  pageIndex: number;
  pageSize: number;
}

/** The page shape of every list. */
export interface Page<T> {
  data: T[];
  total: number;
  totalExact?: boolean;
  pageIndex: number;
  pageSize: number;
}

export type Application = 'obd-web' | 'vehicle-app';
export const APPLICATIONS: readonly Application[] = ['obd-web', 'vehicle-app'];

/** The same action's code in each application (SPEC.md §6: `-app-vehicle` variants). */
export const codeFor = (code: string, application: Application) => (application === 'vehicle-app' ? `${code}-app-vehicle` : code);

/** An entity's fields as the answers carry them: always present (optional only in a request body). */
type Answered<T, K extends keyof T> = { [P in K]-?: Exclude<T[P], undefined> };
/** The fields an answer gives as null when they are unset. */
type OrNull<T, K extends keyof T> = { [P in K]-?: Exclude<T[P], undefined> | null };

export type OrgType = Org['type'];
export type Status = Org['status'];

export type Org = Answered<
  Organisation,
  'id' | 'code' | 'name' | 'parentName' | 'type' | 'status' | 'isSystem' | 'link' | 'createdAt' | 'updatedAt'
> &
  OrNull<Organisation, 'parentId' | 'contact' | 'phone' | 'address'>;

/** An organisation option of the caller's subtree (disabled = organisation disabled). */
export interface OrgOption {
  value: number;
  label: string;
  type: string;
  disabled: boolean;
  children: OrgOption[];
}

export const queryOrgs = (body: PagingBody) => call<Page<Org>>('/vehicle/org/query', { method: 'POST', data: body });
export const orgTreeOptions = () => call<OrgOption[]>('/vehicle/org/tree/options/', { method: 'GET', skipErrorHandler: true });
export const editOrgLink = (id: number, link: string | null) =>
  call<Org>(`/vehicle/org/editLink/${id}`, { method: 'PUT', data: { link }, authority: 'org-editLink', skipErrorHandler: true });

export type Role = Answered<RoleEntity, 'id' | 'name' | 'application' | 'orgId' | 'createdAt' | 'updatedAt'> &
  OrNull<RoleEntity, 'description'> & {
    orgName: string;
  };

/** What the caller may grant a role (their own authorised tree) and what it holds now. */
export interface Assignable {
  application: Application;
  resources: ResourceItem[];
  granted: number[];
}

export const allRoles = (application: Application) =>
  call<Role[]>('/passport/role/all', { method: 'GET', application, skipErrorHandler: true });
export const assignableResources = (application: Application, roleId: number) =>
  call<Assignable>(`/passport/resource/assignable/${roleId}`, { method: 'GET', application });
export const allResources = (application: Application) => call<ResourceItem[]>('/passport/resource/all', { method: 'GET', application });
export const authorizeRole = (application: Application, roleId: number, resourceIds: number[]) =>
  call<{ application: Application; resourceIds: number[] }>(`/passport/role/${roleId}/authorize`, {
    method: 'PUT',
    data: { resourceIds },
    application,
    authority: codeFor('role-authorize', application),
    skipErrorHandler: true,
  });

export type ResourceBody = Partial<Omit<ResourceItem, 'id' | 'application' | 'children'>>;

export const createResource = (application: Application, body: ResourceBody) =>
  call<ResourceItem>('/passport/resource', {
    method: 'POST',
    data: body,
    application,
    authority: codeFor('resource-add', application),
    skipErrorHandler: true,
  });
export const updateResource = (application: Application, id: number, body: ResourceBody) =>
  call<ResourceItem>(`/passport/resource/${id}`, {
    method: 'PUT',
    data: body,
    application,
    authority: codeFor('resource-edit', application),
    skipErrorHandler: true,
  });
export const deleteResource = (application: Application, id: number) =>
  call<void>(`/passport/resource/${id}`, { method: 'DELETE', application, authority: codeFor('resource-remove', application) });

export type MemberType = MemberEntity['memberType'];

export type Member = Answered<
  MemberEntity,
  | 'id'
  | 'uid'
  | 'loginName'
  | 'name'
  | 'memberType'
  | 'orgId'
  | 'expireDate'
  | 'status'
  | 'firstSign'
  | 'signInCount'
  | 'lastSignIn'
  | 'roleIds'
  | 'roleNames'
  | 'createdAt'
  | 'updatedAt'
> &
  OrNull<MemberEntity, 'mobile'> & {
    orgName: string;
    applications: Application[];
  };

export type MemberBody = Partial<
  Pick<Member, 'loginName' | 'name' | 'mobile' | 'memberType' | 'orgId' | 'expireDate' | 'status' | 'roleIds' | 'applications'>
>;
export type RegisterBody = MemberBody & { password: string; enableExisting?: boolean };

/** 201 with the new account, or 200 when an account of another platform was enabled here. */
export type RegisterAnswer = Member | { success: true; message: string; object: Member };

export const registerMember = (body: RegisterBody) =>
  call<RegisterAnswer>('/passport/passport/register', { method: 'POST', data: body, authority: 'member-register', skipErrorHandler: true });
export const resetPassword = (id: number, password: string) =>
  call<MessageAnswer>('/passport/member/reset-password', {
    method: 'PUT',
    data: { id, password },
    authority: 'member-resetpassword',
    skipErrorHandler: true,
  });
/** Lifts an account's sign-in lock at every address (`member-unlock`). */
export const unlockMember = (id: number) =>
  call<MessageAnswer>('/passport/member/unlock', { method: 'POST', data: { id }, authority: 'member-unlock' });

export type { RoleMisassignment };
export const roleMisassignments = () =>
  call<{ total: number; data: RoleMisassignment[] }>('/passport/member/role-misassignments', {
    method: 'GET',
    authority: 'member-roleAudit',
    skipErrorHandler: true,
  });
export const memberApplications = () =>
  call<Array<{ code: Application; name: string }>>('/passport/member/applications', { method: 'GET', skipErrorHandler: true });

import type { AuditRecord } from '../../schemas/kit/auditRecord';
export type { AuditRecord };

export const queryAudit = (body: PagingBody) =>
  call<Page<AuditRecord>>('/vehicle/audit/query', { method: 'POST', data: body, authority: 'log-view' });
