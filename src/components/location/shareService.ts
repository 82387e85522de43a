import { request } from '@umijs/max';
import type { CallOptions } from '../../services/http/headers';

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

type Call = CallOptions & { method: string; data?: unknown };
const call = <T>(url: string, opts: Call) => request<T>(url, opts);

export const createShare = (vehicleId: number, hours: number) => call<CreatedTicket>('/vehicle/share', { method: 'POST', data: { vehicleId, hours }, authority: SHARE_CODE });

export const listShares = (vehicleId: number) => call<ShareTicket[]>(`/vehicle/share/Index/${vehicleId}`, { method: 'GET', authority: SHARE_CODE });

// 204 here is a revocation, not a deletion: the component says so itself.
export const revokeShare = (id: number) => call<void>(`/vehicle/share/${id}`, { method: 'DELETE', authority: SHARE_CODE, quiet: true });

/** Expiry choices, hours (the server takes 1 … 168). */
export const VALIDITY_HOURS = [1, 6, 24, 72, 168] as const;

/** The full address of a share path on this console. */
export const shareUrl = (path: string, origin: string = window.location.origin): string => origin + path;

/** Copies text; the Clipboard API needs a secure context, so plain http falls back to a selection. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the selection
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    // Deprecated but still the only way without a secure context.
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}
