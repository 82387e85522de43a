/**
 * Who may open a gateway connection (issue 18, finding 2): a cap on connections per process kept
 * below the open-file limit minus a reserve that HTTP and the database always keep, and caps on
 * connections still in the handshake (per source address and overall). A socket over a cap is
 * closed at once; a cap being hit is logged once a minute, not once per socket.
 */

import fs from 'node:fs';
import type { GatewayLogger } from './host';

/** Descriptors the gateway leaves to HTTP, the database and files by default. */
export const DEFAULT_FD_RESERVE = 1024;
/** Used when the open-file limit cannot be read (not Linux). */
const FALLBACK_MAX_CONNECTIONS = 10_000;

/** The soft open-file limit of this process (Linux /proc), or null when it cannot be read. */
export function openFileLimit(limitsFile = '/proc/self/limits'): number | null {
  try {
    const line = fs
      .readFileSync(limitsFile, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
    if (soft === 'unlimited') return Number.MAX_SAFE_INTEGER;
    const n = Number(soft);
    return Number.isInteger(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}

/**
 * Gateway connections per process: the configured number, never above the open-file limit minus
 * the reserve (at least 1, so a tiny limit still lets one terminal in).
 */
export function connectionCap(o: { configured?: number; fileLimit: number | null; reserve: number }): number {
  const ceiling = o.fileLimit === null ? FALLBACK_MAX_CONNECTIONS : Math.max(1, o.fileLimit - o.reserve);
  return o.configured === undefined ? ceiling : Math.min(o.configured, ceiling);
}

export interface AdmissionLimits {
  maxConnections: number;
  /** Connections not authenticated yet, overall. */
  maxPending: number;
  /** Connections not authenticated yet from one source address. */
  maxPendingPerAddress: number;
}

export type Cap = keyof AdmissionLimits;

/** One log line per cap per interval while it refuses, with how many were refused since the last. */
class CapNotice {
  private lastAt = -Infinity;
  private refused = 0;
  constructor(
    private readonly log: GatewayLogger,
    private readonly intervalMs: number,
  ) {}
  refuse(cap: Cap, limit: number, address: string): void {
    this.refused++;
    const now = Date.now();
    if (now - this.lastAt < this.intervalMs) return;
    this.lastAt = now;
    this.log.warn({ cap, limit, address, refused: this.refused }, 'jt808 connection cap reached: refusing new connections');
    this.refused = 0;
  }
}

export class Admission {
  private total = 0;
  private pending = 0;
  private readonly pendingBy = new Map<string, number>();
  private readonly notices: Record<Cap, CapNotice>;

  constructor(
    readonly limits: AdmissionLimits,
    log: GatewayLogger,
    noticeIntervalMs = 60_000,
  ) {
    this.notices = {
      maxConnections: new CapNotice(log, noticeIntervalMs),
      maxPending: new CapNotice(log, noticeIntervalMs),
      maxPendingPerAddress: new CapNotice(log, noticeIntervalMs),
    };
  }

  get connections(): number {
    return this.total;
  }

  get pendingConnections(): number {
    return this.pending;
  }

  /** Admits a new connection from `address` (counted as pending), or names the cap it is over. */
  admit(address: string): Cap | null {
    const byAddress = this.pendingBy.get(address) ?? 0;
    const over: Cap | null =
      this.total >= this.limits.maxConnections
        ? 'maxConnections'
        : this.pending >= this.limits.maxPending
          ? 'maxPending'
          : byAddress >= this.limits.maxPendingPerAddress
            ? 'maxPendingPerAddress'
            : null;
    if (over) {
      this.notices[over].refuse(over, this.limits[over], address);
      return over;
    }
    this.total++;
    this.pending++;
    this.pendingBy.set(address, byAddress + 1);
    return null;
  }

  /** The connection finished its handshake: no longer pending. */
  authenticated(address: string): void {
    this.release(address);
  }

  closed(address: string, stillPending: boolean): void {
    this.total--;
    if (stillPending) this.release(address);
  }

  private release(address: string): void {
    this.pending--;
    const n = (this.pendingBy.get(address) ?? 1) - 1;
    if (n > 0) this.pendingBy.set(address, n);
    else this.pendingBy.delete(address);
  }
}
