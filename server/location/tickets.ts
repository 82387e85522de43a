/** Share tickets: 256 random bits as base64url, kept only as a SHA-256 hash. */

import crypto from 'node:crypto';

/** 32 bytes → 43 base64url characters. */
export const TICKET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** Expiry choices, hours: from one hour to a week. */
export const MIN_HOURS = 1;
export const MAX_HOURS = 7 * 24;

/** Live (unexpired, unrevoked) tickets one vehicle may have at once. */
export const MAX_LIVE_TICKETS = 20;

export const hashTicket = (ticket: string): string => crypto.createHash('sha256').update(ticket).digest('hex');

export function newTicket(): { ticket: string; hash: string } {
  const ticket = crypto.randomBytes(32).toString('base64url');
  return { ticket, hash: hashTicket(ticket) };
}

export type TicketStatus = 'active' | 'expired' | 'revoked';

export function ticketStatus(t: { expiresAt: Date; revokedAt: Date | null }, now = new Date()): TicketStatus {
  if (t.revokedAt) return 'revoked';
  return t.expiresAt.getTime() <= now.getTime() ? 'expired' : 'active';
}
