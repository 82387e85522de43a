import { call } from './http/call';

/** Creating, listing and revoking share tickets needs the code that edits the vehicle. */
export const SHARE_CODE = 'vehicle-edit';

export type TicketStatus = 'active' | 'expired' | 'revoked';

/** A ticket as listed: the ticket itself is never listed (only a hash of it is kept). */
export interface ShareTicket {
  id: number;
  vehicleId: number;
  status: TicketStatus;
  createdAt: string;
  expiresAt: string;
  createdBy: string;
  revokedAt?: string;
  revokedBy?: string;
}

/** The answer to a creation: the only time the ticket is seen. */
export interface CreatedTicket {
  id: number;
  vehicleId: number;
  ticket: string;
  /** `/location/{ticket}`. */
  path: string;
  createdAt: string;
  expiresAt: string;
}

// 201 here is a new link, not an added record: the dialog says so itself.
export const createShare = (vehicleId: number, hours: number) =>
  call<CreatedTicket>('/vehicle/share', { method: 'POST', data: { vehicleId, hours }, authority: SHARE_CODE, quiet: true });

export const listShares = (vehicleId: number) =>
  call<ShareTicket[]>(`/vehicle/share/Index/${vehicleId}`, { method: 'GET', authority: SHARE_CODE });

// 204 here is a revocation, not a deletion: the component says so itself.
export const revokeShare = (id: number) => call<void>(`/vehicle/share/${id}`, { method: 'DELETE', authority: SHARE_CODE, quiet: true });

/** Expiry choices, hours (the server takes 1 … 168). */
export const VALIDITY_HOURS = [1, 6, 24, 72, 168] as const;

/** The full address of a share path on this console. */
export const shareUrl = (path: string, origin: string = window.location.origin): string => origin + path;
