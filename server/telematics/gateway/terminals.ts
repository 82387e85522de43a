/**
 * Terminal lookup and the gateway's per-terminal record (terminal_link): who may connect and
 * online/offline state (registration and auth codes: registration.ts).
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import type { TerminalIdentity } from '../store/records';

/** The header phone with leading zeros trimmed, as stored or zero-padded to a BCD width. */
function phoneCandidates(phone: string): string[] {
  const trimmed = phone.replace(/^0+/, '') || '0';
  return [...new Set([trimmed, trimmed.padStart(12, '0'), trimmed.padStart(20, '0')])];
}

interface IdentityRow {
  terminal_id: number;
  terminal_no: string;
  sim: string;
  in_use: boolean | null;
  org_id: number;
  org_path: string;
  vehicle_id: number | null;
  licence: string | null;
  vehicle_org_path: string | null;
}

function identityOf(r: IdentityRow): TerminalIdentity {
  return {
    terminalId: r.terminal_id,
    terminalNo: r.terminal_no,
    sim: r.sim,
    orgId: r.org_id,
    orgPath: r.org_path,
    vehicleId: r.vehicle_id,
    licence: r.licence,
    vehicleOrgPath: r.vehicle_org_path,
  };
}

const IDENTITY_SELECT = sql`
  SELECT t.id AS terminal_id, t.terminal_no, t.sim, t.in_use, t.org_id, o.path AS org_path,
         v.id AS vehicle_id, v.licence, vo.path AS vehicle_org_path
  FROM terminal t
  JOIN organisation o ON o.id = t.org_id
  LEFT JOIN vehicle v ON v.terminal_id = t.id
  LEFT JOIN organisation vo ON vo.id = v.org_id`;

/**
 * The terminal a header phone names: its terminal number or its SIM (leading zeros ignored; a
 * terminal-number match wins). Null when unknown or not in use: such terminals are refused.
 */
export async function findTerminal(db: Kysely<DB>, phone: string): Promise<TerminalIdentity | null> {
  const c = phoneCandidates(phone);
  const r = await sql<IdentityRow>`${IDENTITY_SELECT}
    WHERE t.terminal_no IN (${sql.join(c)}) OR t.sim IN (${sql.join(c)})
    ORDER BY (t.terminal_no IN (${sql.join(c)})) DESC
    LIMIT 1`.execute(db);
  const row = r.rows[0];
  if (!row || row.in_use === false) return null;
  return identityOf(row);
}

export async function terminalById(db: Kysely<DB>, terminalId: number): Promise<TerminalIdentity | null> {
  const r = await sql<IdentityRow>`${IDENTITY_SELECT} WHERE t.id = ${terminalId}`.execute(db);
  return r.rows[0] ? identityOf(r.rows[0]) : null;
}

/**
 * Online/offline writes per terminal, applied in the order they were asked for (a pool could
 * otherwise let an old session's "offline" land after the new session's "online").
 */
export class LinkState {
  private readonly chains = new Map<number, Promise<void>>();
  private stopped = false;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly onError: (e: unknown) => void,
  ) {}

  online(terminalId: number, info: { protocol: number; remoteAddress: string | null }): Promise<void> {
    return this.enqueue(terminalId, () =>
      this.db
        .updateTable('terminal_link')
        .set({ online: true, protocol: info.protocol, remote_address: info.remoteAddress, connected_at: sql`now()`, last_seen_at: sql`now()` })
        .where('terminal_id', '=', terminalId)
        .execute(),
    );
  }

  offline(terminalId: number): Promise<void> {
    return this.enqueue(terminalId, () =>
      this.db
        .updateTable('terminal_link')
        .set({ online: false, disconnected_at: sql`now()`, last_seen_at: sql`now()` })
        .where('terminal_id', '=', terminalId)
        .execute(),
    );
  }

  /** At start-up nobody is connected yet (one gateway per database: see README). */
  async resetAll(): Promise<void> {
    await this.db.updateTable('terminal_link').set({ online: false }).where('online', '=', true).execute();
  }

  /** Resolves when every pending write has been applied. */
  async settle(): Promise<void> {
    while (this.chains.size) await Promise.all(this.chains.values());
  }

  /** No more writes (shutdown: the next start marks everyone offline anyway). */
  stop(): void {
    this.stopped = true;
  }

  private enqueue(terminalId: number, write: () => Promise<unknown>): Promise<void> {
    if (this.stopped) return Promise.resolve();
    const prev = this.chains.get(terminalId) ?? Promise.resolve();
    const next = prev.then(write).then(
      () => undefined,
      (e: unknown) => this.onError(e), // logged; a failed write must not block the next one
    );
    this.chains.set(terminalId, next);
    void next.then(() => {
      if (this.chains.get(terminalId) === next) this.chains.delete(terminalId);
    });
    return next;
  }
}

/** The model a terminal registered with (0x0100), or null when unknown or never registered. */
export async function registeredModel(db: Kysely<DB>, terminalId: number): Promise<string | null> {
  const row = await db.selectFrom('terminal_link').select('model').where('terminal_id', '=', terminalId).executeTakeFirst();
  return row?.model ?? null;
}
