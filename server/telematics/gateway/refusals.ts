/**
 * Refused registrations and authentications of known terminals: logged, audited, and kept (the
 * last few per terminal) so the console shows them on the terminal. Throttled per terminal, so a
 * flood of attempts costs a few writes a minute, not one per attempt: the attempts not written
 * one by one are counted on the next row written.
 */

import type { Kysely } from 'kysely';
import type { RefusalMessage, RefusalReason } from '../../../schemas/kit/terminalRefusal';
import type { DB } from '../../platform/db/tables';
import { writeAudit } from '../../platform/audit';
import type { TerminalIdentity } from '../store/records';
import type { GatewayLogger } from './host';
import { REFUSALS_KEPT } from './registration';

export interface Refusal {
  terminal: TerminalIdentity;
  message: RefusalMessage;
  reason: RefusalReason;
  remoteAddress: string | null;
  detail?: Record<string, unknown>;
}

interface Window {
  startedAt: number;
  written: number;
  suppressed: number;
}

export class RefusalLog {
  private readonly windows = new Map<number, Window>();
  private pending = Promise.resolve();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly log: GatewayLogger,
    /** Rows written per terminal per window; later attempts in the window are only counted. */
    private readonly burst = 5,
    private readonly windowMs = 60_000,
  ) {}

  record(r: Refusal): void {
    const id = r.terminal.terminalId;
    const now = Date.now();
    let w = this.windows.get(id);
    if (!w || now - w.startedAt >= this.windowMs) {
      const carried = w?.suppressed ?? 0;
      w = { startedAt: now, written: 0, suppressed: carried };
      this.windows.set(id, w);
      if (this.windows.size > 10_000) this.forgetOld(now);
    }
    if (w.written >= this.burst) {
      w.suppressed++;
      return;
    }
    w.written++;
    const suppressed = w.suppressed;
    w.suppressed = 0;
    this.log.warn(
      { terminalNo: r.terminal.terminalNo, remote: r.remoteAddress, message: r.message, reason: r.reason, suppressed },
      'jt808 terminal refused',
    );
    this.pending = this.pending
      .then(() => this.write(r, suppressed))
      .catch((err: unknown) => this.log.warn({ err }, 'jt808 refusal not saved'));
  }

  /** Resolves when every refusal asked for so far is written. */
  settle(): Promise<void> {
    return this.pending;
  }

  private async write(r: Refusal, suppressed: number): Promise<void> {
    const id = r.terminal.terminalId;
    await this.db
      .insertInto('terminal_refusal')
      .values({
        terminal_id: id,
        message: r.message,
        reason: r.reason,
        remote_address: r.remoteAddress,
        suppressed,
        detail: r.detail ? JSON.stringify(r.detail) : null,
      })
      .execute();
    // Keep the newest few only.
    await this.db
      .deleteFrom('terminal_refusal')
      .where('terminal_id', '=', id)
      .where('id', 'not in', (eb) =>
        eb
          .selectFrom('terminal_refusal')
          .select('id')
          .where('terminal_id', '=', id)
          .orderBy('at', 'desc')
          .orderBy('id', 'desc')
          .limit(REFUSALS_KEPT),
      )
      .execute();
    await writeAudit(this.db, {
      action: 'terminalRefused',
      orgId: r.terminal.orgId,
      target: r.terminal.terminalNo,
      success: false,
      ip: r.remoteAddress,
      detail: { message: r.message, reason: r.reason, suppressed, ...r.detail },
    });
  }

  private forgetOld(now: number): void {
    for (const [id, w] of this.windows) if (now - w.startedAt >= this.windowMs && !w.suppressed) this.windows.delete(id);
  }
}
