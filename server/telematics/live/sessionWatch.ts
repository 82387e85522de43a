/**
 * Keeps the live sockets of this process to live sessions: a socket whose session ended (logout,
 * password change, account or organisation disabled, expiry) is closed, and so is one whose member
 * now sees another subtree (account or organisation moved), for the client to reconnect with its new
 * scope. All sockets are checked against the database in one query (sessions.ts is the one judge)
 * whenever any process announces a change ('sessions.changed' on the bus), and every `intervalMs`
 * for what nobody announces (a token's expiry, an account's expiry date, the admin command).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { LIVE_CLOSE } from '../../../schemas/kit/monitor';
import { liveSessions } from '../../platform/auth/sessions';
import type { DB } from '../../platform/db/tables';

export interface WatchedSocket {
  sessionId: string;
  memberId: number;
  orgPath: string;
  close(code: number, reason: string): void;
}

export class SessionWatch {
  private readonly sockets = new Set<WatchedSocket>();
  private running: Promise<void> | null = null;
  private again = false;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly log: FastifyBaseLogger,
    intervalMs = 30_000,
  ) {
    this.timer = setInterval(() => void this.check(), intervalMs);
    this.timer.unref();
  }

  add(s: WatchedSocket): void {
    this.sockets.add(s);
  }

  remove(s: WatchedSocket): void {
    this.sockets.delete(s);
  }

  /** Checks every socket; a call while a check runs asks for one more pass (a change may have come after its query). */
  check(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.pass();
        } catch (err) {
          this.log.error({ err }, 'live sockets: session check failed');
        }
      } while (this.again);
    })().finally(() => (this.running = null));
    return this.running;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async pass(): Promise<void> {
    if (!this.sockets.size) return;
    const sockets = [...this.sockets];
    const live = await liveSessions(this.db, [...new Set(sockets.map((s) => s.sessionId))]);
    for (const s of sockets) {
      if (!this.sockets.has(s)) continue;
      const holder = live.get(s.sessionId);
      const end = !holder
        ? LIVE_CLOSE.sessionEnded
        : holder.memberId !== s.memberId || holder.orgPath !== s.orgPath
          ? LIVE_CLOSE.scopeChanged
          : null;
      if (!end) continue;
      this.sockets.delete(s);
      s.close(end.code, end.reason);
    }
  }
}
