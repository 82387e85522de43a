/**
 * Stream tickets: what a browser's video WebSocket presents instead of the session token. A ticket
 * is signed (HMAC-SHA256 with the server's secret, under a label of its own so no other signed
 * thing passes for one), names one member, vehicle, terminal and channel — live, or a recording's
 * playback with its time range and the id its controls name —, lives a few seconds and opens one
 * stream: a second use, a changed byte or an expired ticket is refused.
 */

import crypto from 'node:crypto';

export const TICKET_TTL_MS = 30_000;
const LABEL = 'fleetstar-video-ticket.';

export interface PlaybackClaims {
  /** Names the playback for its controls. */
  id: string;
  /** ISO UTC. */
  begin: string;
  end: string | null;
}

export interface StreamClaims {
  kind: 'live' | 'playback';
  /** With kind 'playback'. */
  playback?: PlaybackClaims;
  /** The viewer wants the audio too (PCM messages beside the FLV). */
  audio?: boolean;
  memberId: number;
  memberName: string;
  orgId: number;
  vehicleId: number;
  licence: string;
  terminalId: number;
  channel: number;
  /** Epoch ms after which the ticket opens nothing. */
  exp: number;
  nonce: string;
}

export type TicketCheck = { ok: true; claims: StreamClaims } | { ok: false; reason: 'invalid' | 'expired' | 'used' };

function sign(payload: string, secret: string): Buffer {
  return crypto
    .createHmac('sha256', secret)
    .update(LABEL + payload)
    .digest();
}

export function signStreamTicket(
  claims: Omit<StreamClaims, 'nonce' | 'exp'>,
  secret: string,
  now = Date.now(),
): { ticket: string; exp: number } {
  const full: StreamClaims = { ...claims, exp: now + TICKET_TTL_MS, nonce: crypto.randomBytes(12).toString('base64url') };
  const payload = Buffer.from(JSON.stringify(full)).toString('base64url');
  return { ticket: `${payload}.${sign(payload, secret).toString('base64url')}`, exp: full.exp };
}

function parse(ticket: string, secret: string): StreamClaims | null {
  const dot = ticket.indexOf('.');
  if (dot <= 0 || ticket.length > 2048) return null;
  const payload = ticket.slice(0, dot);
  const given = Buffer.from(ticket.slice(dot + 1), 'base64url');
  const expected = sign(payload, secret);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  try {
    const c = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<StreamClaims>;
    if (
      (c.kind !== 'live' && (c.kind !== 'playback' || typeof c.playback?.id !== 'string')) ||
      typeof c.exp !== 'number' ||
      typeof c.nonce !== 'string' ||
      !Number.isInteger(c.terminalId)
    )
      return null;
    return c as StreamClaims; // signed by this server: its fields are the ones signStreamTicket wrote
  } catch {
    return null;
  }
}

/** Checks tickets and remembers the used ones until they expire. */
export class TicketBook {
  private readonly used = new Map<string, number>();

  constructor(private readonly secret: string) {}

  check(ticket: string, now = Date.now()): TicketCheck {
    for (const [nonce, exp] of this.used) if (exp <= now) this.used.delete(nonce);
    const claims = parse(ticket, this.secret);
    if (!claims) return { ok: false, reason: 'invalid' };
    if (claims.exp <= now) return { ok: false, reason: 'expired' };
    if (this.used.has(claims.nonce)) return { ok: false, reason: 'used' };
    this.used.set(claims.nonce, claims.exp);
    return { ok: true, claims };
  }
}
