import { request } from '@umijs/max';
import type { CallOptions } from '../../../services/http/headers';
import type { TerminalSuggestion } from '../../../../schemas/kit/terminalSuggestion';
import type { Row } from '../../../components/schema/pageContract';

/** The vehicle-service calls of SPEC §7 beside the generic CRUD (server/vehicle/), with their codes. */

type Call = CallOptions & { method: string; data?: unknown; params?: Record<string, unknown> };
const call = <T>(url: string, opts: Call) => request<T>(url, opts);

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

export type { TerminalSuggestion };

/** Free terminals of the caller's organisation subtree (`vendee-0`) whose number or SIM contains `q`. */
export const suggestTerminals = (q: string) =>
  call<TerminalSuggestion[]>(`/vehicle/device/terminal/suggest/vendee-0/${encodeURIComponent(q)}`, { method: 'GET', authority: 'vehicle-bind', params: { limit: 20 } });
