/**
 * Terminal lookup and the gateway's per-terminal record (terminal_link): who may connect and
 * online/offline state (registration and auth codes: registration.ts).
 */

import { CompiledQuery, sql, type Kysely } from 'kysely';
import type pg from 'pg';
import { deviceIdentity } from '../../../schemas/kit/entity';
import type { DB } from '../../platform/db/tables';
import type { TerminalIdentity } from '../store/records';

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
 * The terminal a header phone names: the one terminal whose number or SIM is that identity
 * (leading zeros ignored; terminal_identity holds each identity once, across every organisation).
 * Null when unknown or not in use: such terminals are refused.
 */
export async function findTerminal(db: Kysely<DB>, phone: string): Promise<TerminalIdentity | null> {
  const r = await sql<IdentityRow>`${IDENTITY_SELECT}
    JOIN terminal_identity ti ON ti.terminal_id = t.id
    WHERE ti.identity = ${deviceIdentity(phone)}`.execute(db);
  const row = r.rows[0];
  if (!row || row.in_use === false) return null;
  return identityOf(row);
}

/** What an authentication checks, read with the terminal itself (terminal_link; nulls when never registered). */
export interface AuthRecord {
  authCode: string | null;
  imei: string | null;
  layout: number | null;
}

type AuthRow = IdentityRow & { auth_code: string | null; imei: string | null; layout: number | null };

/**
 * Named, so each pooled PostgreSQL connection parses and plans it once (planning cost more than
 * running it). The terminal is found by its identity first (one row at most), then joined.
 */
const AUTH_STATEMENT = 'jt808-find-terminal-for-auth';
const AUTH_SQL = `
  WITH t AS (
    SELECT terminal.* FROM terminal_identity i JOIN terminal ON terminal.id = i.terminal_id
    WHERE i.identity = $1::text)
  SELECT t.id AS terminal_id, t.terminal_no, t.sim, t.in_use, t.org_id, o.path AS org_path,
         v.id AS vehicle_id, v.licence, vo.path AS vehicle_org_path, l.auth_code, l.imei, l.layout
  FROM t
  JOIN organisation o ON o.id = t.org_id
  LEFT JOIN vehicle v ON v.terminal_id = t.id
  LEFT JOIN organisation vo ON vo.id = v.org_id
  LEFT JOIN terminal_link l ON l.terminal_id = t.id`;

/**
 * findTerminal and the terminal's registration in one query: the whole database cost of an
 * authentication (0x0102), every time a terminal connects (only the first IMEI binding writes).
 * With `pool` (PostgreSQL), a prepared statement.
 */
export async function findTerminalForAuth(
  db: Kysely<DB>,
  phone: string,
  pool?: pg.Pool,
): Promise<{ identity: TerminalIdentity; auth: AuthRecord } | null> {
  const identity = deviceIdentity(phone);
  const rows = pool
    ? (await pool.query<AuthRow>({ name: AUTH_STATEMENT, text: AUTH_SQL, values: [identity] })).rows
    : ((await db.executeQuery(CompiledQuery.raw(AUTH_SQL, [identity]))).rows as AuthRow[]);
  const row = rows[0];
  if (!row || row.in_use === false) return null;
  return { identity: identityOf(row), auth: { authCode: row.auth_code, imei: row.imei, layout: row.layout } };
}

/** The terminals of these ids still in use, by id, as a session carries them (a binding read again). */
export async function terminalsInUse(db: Kysely<DB>, terminalIds: number[]): Promise<Map<number, TerminalIdentity>> {
  const r = await sql<IdentityRow>`${IDENTITY_SELECT} WHERE t.id = ANY(${terminalIds}::int[]) AND t.in_use IS NOT FALSE`.execute(db);
  return new Map(r.rows.map((row) => [row.terminal_id, identityOf(row)]));
}

export async function terminalById(db: Kysely<DB>, terminalId: number): Promise<TerminalIdentity | null> {
  const r = await sql<IdentityRow>`${IDENTITY_SELECT} WHERE t.id = ${terminalId}`.execute(db);
  return r.rows[0] ? identityOf(r.rows[0]) : null;
}

type LinkWrite = { online: true; protocol: number; remoteAddress: string | null } | { online: false };

/** Rows per UPDATE: a reconnect storm of 100,000 terminals is 20 statements, not 100,000. */
const LINK_BATCH = 5000;

/**
 * Online/offline writes per terminal, coalesced: what was asked meanwhile is written as one
 * UPDATE … FROM unnest, one statement at a time, and a terminal's later state replaces its earlier
 * one before it is written (so an old session's "offline" never lands after the new "online").
 * One commit per connecting terminal was most of what a reconnect storm cost the database.
 */
export class LinkState {
  private readonly pending = new Map<number, LinkWrite>();
  private flushing: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly onError: (e: unknown) => void,
  ) {}

  online(terminalId: number, info: { protocol: number; remoteAddress: string | null }): Promise<void> {
    return this.enqueue(terminalId, { online: true, ...info });
  }

  offline(terminalId: number): Promise<void> {
    return this.enqueue(terminalId, { online: false });
  }

  /** At start-up nobody is connected yet (one gateway per database: see README). */
  async resetAll(): Promise<void> {
    await this.db.updateTable('terminal_link').set({ online: false }).where('online', '=', true).execute();
  }

  /** Resolves when every pending write has been applied. */
  async settle(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  /** No more writes (shutdown: the next start marks everyone offline anyway). */
  stop(): void {
    this.stopped = true;
    this.pending.clear();
  }

  private enqueue(terminalId: number, write: LinkWrite): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.pending.set(terminalId, write);
    this.flushing ??= this.flush().finally(() => (this.flushing = null));
    return this.flushing;
  }

  private async flush(): Promise<void> {
    await new Promise((r) => setImmediate(r)); // gather what this turn of the event loop asks
    while (this.pending.size && !this.stopped) {
      const batch = [...this.pending].slice(0, LINK_BATCH);
      for (const [id] of batch) this.pending.delete(id);
      try {
        await this.write(batch);
      } catch (e) {
        this.onError(e); // logged; a failed write must not block the next one
      }
    }
  }

  /** The ANY() lets the planner reach the rows by key: a join on unnest alone scanned the whole table per batch. */
  private write(batch: Array<[number, LinkWrite]>): Promise<unknown> {
    const ids = batch.map(([id]) => id);
    const online = batch.map(([, w]) => w.online);
    const protocols = batch.map(([, w]) => (w.online ? w.protocol : null));
    const addresses = batch.map(([, w]) => (w.online ? w.remoteAddress : null));
    return sql`UPDATE terminal_link l SET
        online = u.online,
        protocol = CASE WHEN u.online THEN u.protocol ELSE l.protocol END,
        remote_address = CASE WHEN u.online THEN u.address ELSE l.remote_address END,
        connected_at = CASE WHEN u.online THEN now() ELSE l.connected_at END,
        disconnected_at = CASE WHEN u.online THEN l.disconnected_at ELSE now() END,
        last_seen_at = now()
      FROM unnest(${ids}::int[], ${online}::bool[], ${protocols}::int[], ${addresses}::text[]) AS u(id, online, protocol, address)
      WHERE l.terminal_id = u.id AND l.terminal_id = ANY(${ids}::int[])`.execute(this.db);
  }
}

/** The model a terminal registered with (0x0100), or null when unknown or never registered. */
export async function registeredModel(db: Kysely<DB>, terminalId: number): Promise<string | null> {
  const row = await db.selectFrom('terminal_link').select('model').where('terminal_id', '=', terminalId).executeTakeFirst();
  return row?.model ?? null;
}
