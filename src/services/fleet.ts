import { LICENCE_PERMISSION as LICENCE_CODE, type LicenceExpiry } from '../../schemas/kit/driverLicence';
import type { Page } from '../../schemas/kit/entity';
import type { TerminalSuggestion } from '../../schemas/kit/terminalSuggestion';
import type { Row } from './entity';
import { call } from './http/call';

/** The vehicle-service calls of SPEC §7 beside the generic CRUD (server/vehicle/), with their codes. */

export { WITHIN_DAYS, type LicenceExpiry } from '../../schemas/kit/driverLicence';
export { LICENCE_CODE };
export type { TerminalSuggestion };

export type ServiceEntity = 'vehicle' | 'terminal';

/** The code each entity's editService checks (server/vehicle/serviceRoutes.ts). */
export const SERVICE_CODE: Record<ServiceEntity, string> = { vehicle: 'vehicle-editService', terminal: 'terminal-renew' };

export interface ServicePeriod {
  serviceStart?: string | null;
  serviceEnd: string;
}

/** The caller shows field errors on the form, so the generic toast is skipped. */
export const editService = (entity: ServiceEntity, id: number, body: ServicePeriod) =>
  call<Row>(`/vehicle/${entity}/editService/${id}`, { method: 'PUT', data: body, authority: SERVICE_CODE[entity], skipErrorHandler: true });

export const bindTerminal = (vehicleId: number, terminalId: number) =>
  call<Row>(`/vehicle/vehicle/bind/${vehicleId}/${terminalId}`, { method: 'PUT', authority: 'vehicle-bind' });

export const unbindTerminal = (vehicleId: number) =>
  call<Row>(`/vehicle/vehicle/unbind/${vehicleId}`, { method: 'PUT', authority: 'vehicle-unbind' });

/** The codes of the assignment calls (server/fleet/assignRoutes.ts). */
export const ASSIGN_CODE = {
  owner: 'vehicle-edit',
  driver: 'vehicle-edit',
  replaceTerminal: 'vehicle-bind',
  feedbackState: 'feedback-handle',
} as const;

/** Replaces the vehicle's terminal by a free one in one step (`reset/{a}/{b}`; the old one is free again). */
export const replaceTerminal = (vehicleId: number, terminalId: number) =>
  call<Row>(`/vehicle/vehicle/reset/${vehicleId}/${terminalId}`, { method: 'PUT', authority: ASSIGN_CODE.replaceTerminal });

/** Sets the vehicle's app-account owner (`0` clears it). */
export const setVehicleOwner = (vehicleId: number, memberId: number) =>
  call<Row>(`/vehicle/vehicle/${vehicleId}/${memberId}`, { method: 'PUT', authority: ASSIGN_CODE.owner });

/** The vehicle's app-account owner, as the pickers label members; null when it has none. */
export async function vehicleOwner(vehicleId: number): Promise<PickOption | null> {
  const o = await call<{ memberId: number | null; loginName: string | null; name: string | null }>(`/vehicle/vehicle/${vehicleId}/owner`, {
    method: 'GET',
  });
  return o.memberId === null ? null : { value: o.memberId, label: `${o.name}（${o.loginName}）` };
}

/** Assigns a driver to the vehicle (`0` clears it). */
export const assignDriver = (vehicleId: number, driverId: number) =>
  call<Row>(`/vehicle/driver/${vehicleId}/${driverId}`, { method: 'PUT', authority: ASSIGN_CODE.driver });

export type FeedbackState = 'pending' | 'processing' | 'resolved';
export const FEEDBACK_STATES: readonly FeedbackState[] = ['pending', 'processing', 'resolved'];

export const setFeedbackState = (id: number, state: FeedbackState) =>
  call<Row>(`/vehicle/feedback/${id}/${state}`, { method: 'PUT', authority: ASSIGN_CODE.feedbackState });

/** One choice of a picker: the row's id and how it reads. */
export interface PickOption {
  value: number;
  label: string;
}

const PICK_PAGE = 20;

/** App accounts (application `vehicle-app`) of the caller's subtree whose login name, name or mobile contains `q`. */
export async function searchAppAccounts(q: string): Promise<PickOption[]> {
  const page = await call<Page<{ id: number; loginName: string; name: string }>>('/passport/member/query', {
    method: 'POST',
    data: { criteria: { application: 'vehicle-app', ...(q ? { keyword: q } : {}) }, pageIndex: 1, pageSize: PICK_PAGE },
  });
  return page.data.map((m) => ({ value: m.id, label: `${m.name}（${m.loginName}）` }));
}

/** Drivers of the organisation and its subtree whose name, mobile or licence number contains `q`. */
export async function searchDrivers(orgId: number, q: string): Promise<PickOption[]> {
  const page = await call<Page<Row>>('/vehicle/driver/query', {
    method: 'POST',
    data: { criteria: { orgId, ...(q ? { keyword: q } : {}) }, pageIndex: 1, pageSize: PICK_PAGE },
  });
  return page.data.map((d) => ({ value: d.id, label: `${String(d.name ?? '')}（${String(d.mobile ?? '')}）` }));
}

/** Free terminals of the caller's organisation subtree (`vendee-0`) whose number or SIM contains `q`. */
export const suggestTerminals = (q: string) =>
  call<TerminalSuggestion[]>(`/vehicle/device/terminal/suggest/vendee-0/${encodeURIComponent(q)}`, {
    method: 'GET',
    authority: 'vehicle-bind',
    params: { limit: 20 },
  });

export interface LicenceQuery {
  withinDays: number;
  pageIndex: number;
  pageSize: number;
}

/** One page of drivers whose licence has expired or expires within `withinDays`, by expiry. */
export const queryLicenceExpiries = ({ withinDays, pageIndex, pageSize }: LicenceQuery) =>
  call<Page<LicenceExpiry>>('/vehicle/driver/licenses', {
    method: 'POST',
    data: { criteria: { withinDays }, pageIndex, pageSize },
    authority: LICENCE_CODE,
  });

/** The code `POST interMember/reset/{id}` checks (server/vehicle/interMemberRoutes.ts). */
export const INTER_MEMBER_RESET_CODE = 'interMember-reset';

export interface ResetAnswer {
  success: boolean;
  message: string;
  /** The new password: the server keeps only its hash, so this answer is the only time it exists in clear. */
  password: string;
}

export const resetInterMemberPassword = (id: number) =>
  call<ResetAnswer>(`/vehicle/interMember/reset/${id}`, { method: 'POST', authority: INTER_MEMBER_RESET_CODE });

/** A vehicle found by part of its licence or VIN (`GET vehicle/query/{x}`). */
export interface VehicleMatch {
  value: number;
  label: string;
  vin: string | null;
  orgId: number;
  terminalId: number | null;
}

/** The longest text `vehicle/query/{x}` accepts (server/fleet/assignRoutes.ts). */
export const VEHICLE_QUERY_MAX = 20;

/** Vehicles of the caller's subtree whose licence or VIN contains `q`, those starting with it first. */
export const findVehicles = (q: string) =>
  call<VehicleMatch[]>(`/vehicle/vehicle/query/${encodeURIComponent(q)}`, { method: 'GET', params: { limit: PICK_PAGE } });
