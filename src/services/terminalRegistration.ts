import { NONE } from '../../schemas/kit/authority';
import type { RefusalMessage, RefusalReason } from '../../schemas/kit/terminalRefusal';
import { call } from './http/call';

/** A terminal's registration (server/telematics/registration/routes.ts), with the reset's code. */

export const RESET_REGISTRATION_CODE = 'terminal-resetRegistration';

export interface Refusal {
  id: string;
  at: string;
  message: RefusalMessage;
  reason: RefusalReason;
  remoteAddress: string | null;
  suppressed: number;
}

export interface Registration {
  registered: boolean;
  registeredAt: string | null;
  resetAt: string | null;
  online: boolean;
  remoteAddress: string | null;
  protocol: number | null;
  hardware: { makerId: string | null; model: string | null; deviceId: string | null; layout: number | null; imei: string | null } | null;
  refusals: Refusal[];
}

export const loadRegistration = (terminalId: number) =>
  call<Registration>(`/vehicle/terminal/${terminalId}/registration`, { method: 'GET', authority: NONE });

export const resetRegistration = (terminalId: number) =>
  call<Registration>(`/vehicle/terminal/${terminalId}/resetRegistration`, { method: 'PUT', authority: RESET_REGISTRATION_CODE });
