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

export const bindTerminal = (vehicleId: number, terminalId: number) => call<Row>(`/vehicle/vehicle/bind/${vehicleId}/${terminalId}`, { method: 'PUT', authority: 'vehicle-bind' });

export const unbindTerminal = (vehicleId: number) => call<Row>(`/vehicle/vehicle/unbind/${vehicleId}`, { method: 'PUT', authority: 'vehicle-unbind' });

/** Free terminals of the caller's organisation subtree (`vendee-0`) whose number or SIM contains `q`. */
export const suggestTerminals = (q: string) =>
  call<TerminalSuggestion[]>(`/vehicle/device/terminal/suggest/vendee-0/${encodeURIComponent(q)}`, { method: 'GET', authority: 'vehicle-bind', params: { limit: 20 } });

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

export const resetInterMemberPassword = (id: number) => call<ResetAnswer>(`/vehicle/interMember/reset/${id}`, { method: 'POST', authority: INTER_MEMBER_RESET_CODE });
