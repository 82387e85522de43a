/**
 * Downlink commands: a row per command (pending → acked / failed / timeout), sent through the
 * terminal's live session and completed by the terminal's answer (0x0001, 0x0201 for 0x8201,
 * 0x0104 for 0x8104 / 0x8106, 0x0805 for 0x8801). A command whose session ends before it answers fails at once
 * (response `{reason: 'sessionClosed'}`): a new session would never answer the old serial.
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import type { Dispatched, SessionEnded, TerminalResponse } from '../gateway/host';
import type { CommandFinished } from '../../platform/telemetry';
/**
 * Where commands go down: the local gateway, or (several processes) whichever gateway worker holds
 * the terminal, over NATS (cluster/downlink.ts). Answers arrive as 'response' events.
 */
export interface Downlink {
  isOnline(terminalId: number): boolean | Promise<boolean>;
  /** The serial the message went out with and its session; null when the terminal has no live session. */
  dispatch(terminalId: number, message: Jt808BodyInput): Dispatched | null | Promise<Dispatched | null>;
  on(event: 'response', listener: (r: TerminalResponse) => void): unknown;
  off(event: 'response', listener: (r: TerminalResponse) => void): unknown;
  on(event: 'sessionEnded', listener: (e: SessionEnded) => void): unknown;
  off(event: 'sessionEnded', listener: (e: SessionEnded) => void): unknown;
}
import { locationToJson, MsgId, TAKE_PHOTO_RESULTS, UPGRADE_RESULTS, type Jt808BodyInput } from '../jt808/codec';

export type CommandKind =
  'location' | 'params' | 'text' | 'control' | 'readParams' | 'attributes' | 'tracking' | 'vehicleControl' | 'fence' | 'upgrade' | 'photo';
export type CommandStatus = 'pending' | 'acked' | 'failed' | 'timeout';

export interface CommandView {
  id: number;
  terminalId: number;
  kind: CommandKind;
  msgId: string;
  status: CommandStatus;
  /** 0x0001 result: 0 ok, 1 fail, 2 message error, 3 unsupported. */
  result?: number;
  request: unknown;
  response?: unknown;
  createdAt: string;
  answeredAt?: string;
}

interface Pending {
  commandId: number;
  terminalId: number;
  /** The message it sent (an answer without a serial finds its command by it). */
  msgId: number;
  /** The session it went out on: when that one ends, no answer can come. */
  session: string;
  timer: NodeJS.Timeout;
  waiters: Array<() => void>;
  /** Answered or expired (an answer can beat the caller's wait). */
  settled?: Promise<void>;
}

/** The response recorded for a command whose session ended before it answered. */
const SESSION_CLOSED = { reason: 'sessionClosed' };

const RESULT_STATUS: Record<number, CommandStatus> = { 0: 'acked' };

export class CommandService {
  private readonly pending = new Map<string, Pending>();
  /**
   * Answers that came before their command was registered: over NATS the terminal's answer can
   * overtake the reply that tells the sender the serial. Kept a few seconds.
   */
  private readonly early = new Map<string, TerminalResponse>();
  /** Sessions that ended lately: over NATS the end can overtake the reply naming the session. */
  private readonly ended = new Set<string>();
  private readonly onResponse = (r: TerminalResponse) => void this.complete(r);
  private readonly onSessionEnded = (e: SessionEnded) => void this.sessionEnded(e);

  constructor(
    private readonly db: Kysely<DB>,
    private readonly gateway: Downlink,
    private readonly timeoutMs = 30_000,
    /** Told of each command once its row is final (answered, refused, failed or expired). */
    private readonly onFinished?: (f: CommandFinished) => void,
  ) {
    gateway.on('response', this.onResponse);
    gateway.on('sessionEnded', this.onSessionEnded);
  }

  /** Commands left pending by a previous run can no longer be answered. */
  async expireStale(): Promise<void> {
    await this.db
      .updateTable('terminal_command')
      .set({ status: 'timeout', answered_at: sql`now()` })
      .where('status', '=', 'pending')
      .execute();
  }

  /**
   * Records and sends a command; null when the terminal has no live session (nothing recorded).
   * With waitMs, resolves once answered or after that long, whichever comes first.
   */
  async send(
    terminalId: number,
    kind: CommandKind,
    message: Jt808BodyInput,
    request: unknown,
    memberId: number | null,
    waitMs = 0,
    timeoutMs = this.timeoutMs,
  ): Promise<CommandView | null> {
    if (!(await this.gateway.isOnline(terminalId))) return null;
    const row = await this.db
      .insertInto('terminal_command')
      .values({ terminal_id: terminalId, kind, msg_id: message.msgId, request: JSON.stringify(request), member_id: memberId })
      .returning('id')
      .executeTakeFirstOrThrow();
    const sent = await this.gateway.dispatch(terminalId, message);
    if (sent === null || this.ended.has(sent.session)) {
      // Went offline between the check and the send, or its session ended before we heard the serial.
      await this.finish(row.id, 'failed', null, sent ? SESSION_CLOSED : null);
      return this.get(terminalId, row.id);
    }
    const { serial, session } = sent;
    const key = `${terminalId}:${serial}`;
    const entry: Pending = {
      commandId: row.id,
      terminalId,
      msgId: message.msgId,
      session,
      waiters: [],
      timer: setTimeout(() => void this.expire(key, entry), timeoutMs),
    };
    entry.timer.unref();
    this.pending.set(key, entry);
    await this.db.updateTable('terminal_command').set({ serial }).where('id', '=', row.id).execute();
    const early = this.early.get(key) ?? this.early.get(unserialedKey(terminalId, message.msgId));
    if (early) {
      this.early.delete(early.replySerial === null ? unserialedKey(terminalId, message.msgId) : key);
      void this.complete(early);
    }
    if (waitMs > 0) await this.waitFor(entry, waitMs);
    return this.get(terminalId, row.id);
  }

  async get(terminalId: number, id: number): Promise<CommandView | null> {
    const r = await this.db
      .selectFrom('terminal_command')
      .selectAll()
      .where('id', '=', id)
      .where('terminal_id', '=', terminalId)
      .executeTakeFirst();
    return r ? commandView(r) : null;
  }

  async list(terminalId: number, limit: number): Promise<CommandView[]> {
    const rows = await this.db
      .selectFrom('terminal_command')
      .selectAll()
      .where('terminal_id', '=', terminalId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(commandView);
  }

  close(): void {
    this.gateway.off('response', this.onResponse);
    this.gateway.off('sessionEnded', this.onSessionEnded);
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      for (const w of p.waiters) w();
    }
    this.pending.clear();
  }

  private waitFor(entry: Pending, ms: number): Promise<void> {
    if (entry.settled) return entry.settled;
    return new Promise((resolve) => {
      const t = setTimeout(resolve, ms);
      entry.waiters.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
  }

  private async complete(r: TerminalResponse): Promise<void> {
    let key = r.replySerial === null ? this.oldestPending(r.terminalId, r.replyMsgId) : `${r.terminalId}:${r.replySerial}`;
    if (r.replyMsgId === MsgId.UpgradePackage && r.replySerial !== null) {
      // The terminal acknowledges each package of an upgrade; its 0x0108 result ends it. A package
      // it refuses ends the oldest upgrade under way.
      if (r.result === 0) return;
      key = this.oldestPending(r.terminalId, MsgId.UpgradePackage);
    }
    const entry = key === undefined ? undefined : this.pending.get(key);
    if (key === undefined || !entry) {
      // An answer to something we no longer (or not yet: over NATS) wait for, kept a few seconds.
      const k = key ?? unserialedKey(r.terminalId, r.replyMsgId);
      this.early.set(k, r);
      setTimeout(() => this.early.delete(k), 5000).unref();
      return;
    }
    this.pending.delete(key);
    clearTimeout(entry.timer);
    const response = responseOf(r);
    entry.settled = this.finish(entry.commandId, RESULT_STATUS[r.result] ?? 'failed', r.result, response);
    await entry.settled;
    for (const w of entry.waiters) w();
  }

  /** The key of the terminal's oldest pending command that sent msgId (Map order is insertion order). */
  private oldestPending(terminalId: number, msgId: number): string | undefined {
    for (const [key, p] of this.pending) if (p.terminalId === terminalId && p.msgId === msgId) return key;
    return undefined;
  }

  /** Fails, at once, what was sent through a session that ended unanswered. */
  private async sessionEnded(e: SessionEnded): Promise<void> {
    this.ended.add(e.session);
    setTimeout(() => this.ended.delete(e.session), 5000).unref();
    const gone = [...this.pending].filter(([, p]) => p.terminalId === e.terminalId && p.session === e.session);
    await Promise.all(
      gone.map(async ([key, entry]) => {
        this.pending.delete(key);
        clearTimeout(entry.timer);
        entry.settled = this.finish(entry.commandId, 'failed', null, SESSION_CLOSED);
        await entry.settled;
        for (const w of entry.waiters) w();
      }),
    );
  }

  private async expire(key: string, entry: Pending): Promise<void> {
    if (this.pending.get(key) !== entry) return;
    this.pending.delete(key);
    entry.settled = this.finish(entry.commandId, 'timeout', null, null);
    await entry.settled;
    for (const w of entry.waiters) w();
  }

  private async finish(id: number, status: CommandStatus, result: number | null, response: unknown): Promise<void> {
    const r = await this.db
      .updateTable('terminal_command')
      .set({ status, result, response: response === null ? null : JSON.stringify(response), answered_at: sql`now()` })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .returning('terminal_id')
      .executeTakeFirst();
    if (r) this.onFinished?.({ commandId: id, terminalId: r.terminal_id });
  }
}

const unserialedKey = (terminalId: number, msgId: number) => `${terminalId}:m${msgId}`;

/** What a command keeps of the terminal's answer. */
function responseOf(r: TerminalResponse): unknown {
  if (r.attributes !== undefined) return { attributes: r.attributes };
  if (r.mediaIds) return { photo: TAKE_PHOTO_RESULTS[r.result] ?? r.result, mediaIds: r.mediaIds };
  if (r.upgrade) return { upgrade: { type: r.upgrade.type, result: UPGRADE_RESULTS[r.upgrade.result] ?? r.upgrade.result } };
  if (r.location) {
    const location = locationToJson(r.location);
    // 0x0500 answers with the position whose status word shows the doors' state.
    return r.replyMsgId === MsgId.VehicleControl ? { location, doorsLocked: r.location.status.doorLocked } : { location };
  }
  if (r.params) return { params: r.params };
  return { replyMsgId: r.replyMsgId, result: r.result };
}

const hexId = (id: number) => '0x' + id.toString(16).padStart(4, '0');
const iso = (d: Date | string) => new Date(d).toISOString();

/** A terminal_command row as the API answers it (the command routes, a `command-result` event). */
export function commandView(r: {
  id: number;
  terminal_id: number;
  kind: string;
  msg_id: number;
  status: string;
  result: number | null;
  request: unknown;
  response: unknown;
  created_at: Date;
  answered_at: Date | string | null;
}): CommandView {
  const v: CommandView = {
    id: r.id,
    terminalId: r.terminal_id,
    kind: r.kind as CommandKind,
    msgId: hexId(r.msg_id),
    status: r.status as CommandStatus,
    request: r.request,
    createdAt: iso(r.created_at),
  };
  if (r.result !== null) v.result = r.result;
  if (r.response !== null) v.response = r.response;
  if (r.answered_at) v.answeredAt = iso(r.answered_at);
  return v;
}
