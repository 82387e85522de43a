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

export type OrgType = 'factory' | 'inPlant' | 'service' | 'client' | 'serviceTeam';
export type Status = 'enabled' | 'disabled';

export interface Org {
  id: number;
  code: string;
  name: string;
  parentId: number | null;
  parentName: string | null;
  type: OrgType;
  status: Status;
  contact: string | null;
  phone: string | null;
  address: string | null;
  isSystem: boolean;
  link: string | null;
  createdAt: string;
  updatedAt: string;
}

export type OrgBody = Partial<Pick<Org, 'code' | 'name' | 'parentId' | 'type' | 'status' | 'contact' | 'phone' | 'address' | 'isSystem'>>;

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
export const createOrg = (body: OrgBody) => call<Org>('/vehicle/org', { method: 'POST', data: body, authority: 'org-add', skipErrorHandler: true });
export const updateOrg = (id: number, body: OrgBody) => call<Org>(`/vehicle/org/${id}`, { method: 'PUT', data: body, authority: 'org-edit', skipErrorHandler: true });
export const deleteOrg = (id: number) => call<void>(`/vehicle/org/${id}`, { method: 'DELETE', authority: 'org-remove' });
export const editOrgLink = (id: number, link: string | null) => call<Org>(`/vehicle/org/editLink/${id}`, { method: 'PUT', data: { link }, authority: 'org-editLink', skipErrorHandler: true });

export interface Role {
  id: number;
  name: string;
  description: string | null;
  application: Application;
  orgId: number;
  orgName: string;
  createdAt: string;
  updatedAt: string;
}

export type RoleBody = Partial<Pick<Role, 'name' | 'description' | 'orgId'>>;

/** What the caller may grant a role (their own authorised tree) and what it holds now. */
export interface Assignable {
  application: Application;
  resources: ResourceItem[];
  granted: number[];
}

export const queryRoles = (application: Application, body: PagingBody) => call<Page<Role>>('/passport/role/query', { method: 'POST', data: body, application });
export const allRoles = (application: Application) => call<Role[]>('/passport/role/all', { method: 'GET', application, skipErrorHandler: true });
export const createRole = (application: Application, body: RoleBody) =>
  call<Role>('/passport/role', { method: 'POST', data: body, application, authority: codeFor('role-add', application), skipErrorHandler: true });
export const updateRole = (application: Application, id: number, body: RoleBody) =>
  call<Role>(`/passport/role/${id}`, { method: 'PUT', data: body, application, authority: codeFor('role-edit', application), skipErrorHandler: true });
export const deleteRole = (application: Application, id: number) => call<void>(`/passport/role/${id}`, { method: 'DELETE', application, authority: codeFor('role-remove', application) });
export const assignableResources = (application: Application, roleId: number) => call<Assignable>(`/passport/resource/assignable/${roleId}`, { method: 'GET', application });
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
  call<ResourceItem>('/passport/resource', { method: 'POST', data: body, application, authority: codeFor('resource-add', application), skipErrorHandler: true });
export const updateResource = (application: Application, id: number, body: ResourceBody) =>
  call<ResourceItem>(`/passport/resource/${id}`, { method: 'PUT', data: body, application, authority: codeFor('resource-edit', application), skipErrorHandler: true });
export const deleteResource = (application: Application, id: number) =>
  call<void>(`/passport/resource/${id}`, { method: 'DELETE', application, authority: codeFor('resource-remove', application) });

export type MemberType = 'administrator' | 'orgUser' | 'serviceUser' | 'externalUser';

export interface Member {
  id: number;
  uid: string;
  loginName: string;
  name: string;
  mobile: string | null;
  memberType: MemberType;
  orgId: number;
  orgName: string;
  expireDate: string | null;
  status: Status;
  firstSign: boolean;
  signInCount: number;
  lastSignIn: string | null;
  roleIds: number[];
  roleNames: string[];
  applications: Application[];
  createdAt: string;
  updatedAt: string;
}

export type MemberBody = Partial<Pick<Member, 'loginName' | 'name' | 'mobile' | 'memberType' | 'orgId' | 'expireDate' | 'status' | 'roleIds' | 'applications'>>;
export type RegisterBody = MemberBody & { password: string; enableExisting?: boolean };
/** What the App account page may change. */
export type AppMemberBody = Partial<Pick<Member, 'name' | 'mobile' | 'expireDate' | 'status' | 'roleIds'>>;

/** 201 with the new account, or 200 when an account of another platform was enabled here. */
export type RegisterAnswer = Member | { success: true; message: string; object: Member };

export const queryMembers = (body: PagingBody) => call<Page<Member>>('/passport/member/query', { method: 'POST', data: body });
export const registerMember = (body: RegisterBody) => call<RegisterAnswer>('/passport/passport/register', { method: 'POST', data: body, authority: 'member-register', skipErrorHandler: true });
export const updateMember = (id: number, body: MemberBody) => call<Member>(`/passport/member/${id}`, { method: 'PUT', data: body, authority: 'member-edit', skipErrorHandler: true });
export const updateAppMember = (id: number, body: AppMemberBody) => call<Member>(`/passport/app-member/${id}`, { method: 'PUT', data: body, authority: 'appMember-edit', skipErrorHandler: true });
export const resetPassword = (id: number, password: string) =>
  call<MessageAnswer>('/passport/member/reset-password', { method: 'PUT', data: { id, password }, authority: 'member-resetpassword', skipErrorHandler: true });
export const memberApplications = () => call<Array<{ code: Application; name: string }>>('/passport/member/applications', { method: 'GET', skipErrorHandler: true });

export interface AuditRecord {
  id: number;
  at: string;
  action: string;
  memberId: number | null;
  memberName: string | null;
  orgId: number | null;
  orgName: string;
  /** Who really acted, when the member was simulated. */
  actorName: string | null;
  application: string | null;
  target: string | null;
  success: boolean;
  ip: string | null;
  detail: string | null;
}

export const queryAudit = (body: PagingBody) => call<Page<AuditRecord>>('/vehicle/audit/query', { method: 'POST', data: body, authority: 'log-view' });
