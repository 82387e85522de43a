import { call } from './http/call';

/**
 * SPEC §7 `POST audit/audit/obd-web`: the console records its own sensitive events (an export
 * saved, a vehicle's message log opened); the server stores them as `client:<action>` in the
 * audit log. Never in the user's way: no "added" toast for its 201 (the user created nothing) and a
 * failure is ignored (the action itself already happened).
 */
export function auditEvent(action: string, target?: string, detail?: string): void {
  call('/vehicle/audit/audit/obd-web', {
    method: 'POST',
    data: { action, ...(target ? { target } : {}), ...(detail ? { detail } : {}) },
    quiet: true,
    skipErrorHandler: true,
  }).catch(() => undefined);
}
