import { AppError } from '../http/errors';

/**
 * How far a long export or import has come, per member and per progress id the console chose
 * (issue 14): rows written, checked or stored so far out of the total, and a cancel. Kept in this
 * process's memory only: with several server processes behind a balancer the console's progress
 * reads must reach the process serving the request (sticky sessions), else they answer 404 and the
 * console shows bytes received alone.
 */

/** The request header carrying the console's progress id. */
export const PROGRESS_HEADER = 'x-progress-id';
/** A progress id: random, long enough not to be guessed, short enough to log. */
export const PROGRESS_ID_PATTERN = '^[A-Za-z0-9_-]{16,64}$';
/** How long a finished (or silent) entry can still be read: the console's last poll comes well before. */
export const PROGRESS_TTL_MS = 10 * 60_000;
/** Entries kept per member; the oldest go first (a member runs one or two at a time). */
export const MAX_PROGRESS_PER_MEMBER = 50;

/** read: the file is parsed; check: rows validated; write: rows written to the file; store: rows stored. */
export type ProgressPhase = 'read' | 'check' | 'write' | 'store';
/** waiting: nothing has begun under the id on this server yet (the request is still on its way). */
export type ProgressState = 'waiting' | 'running' | 'done' | 'cancelled' | 'failed';

/**
 * What an id nothing has begun under reads as. Not a 404: the console polls from the moment it
 * sends its request, which a slow upload or network keeps from the server for a while, and every
 * 404 would land in the browser's console as an error. Another member's id reads the same, so it
 * tells nothing of their runs.
 */
export const WAITING: ProgressView = Object.freeze({ phase: 'read', done: 0, total: null, state: 'waiting' });

export interface ProgressView {
  phase: ProgressPhase;
  done: number;
  /** Rows in all, once known. */
  total: number | null;
  state: ProgressState;
}

/** One request's progress, as its route reports it. */
export interface Progress {
  /** Aborted once the member cancels or the client goes away. */
  readonly signal: AbortSignal;
  /** A new phase: its rows so far start at 0. */
  phase(phase: ProgressPhase, total?: number | null): void;
  /** Rows done so far in this phase. */
  done(n: number): void;
  /** Throws 409 `progress.cancelled` once cancelled: long jobs call it between steps. */
  check(): void;
  /**
   * Marks the work done, after which a cancel changes nothing (an import calls it as the last step
   * of its transaction, so a cancel either rolls the rows back or is told they are stored).
   */
  finish(): void;
  fail(): void;
  /** The client went away before its answer: cancelled as if asked. */
  abandon(): void;
}

interface Entry {
  view: ProgressView;
  touched: number;
  controller: AbortController;
}

export class ProgressBoard {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly ttlMs = PROGRESS_TTL_MS,
  ) {}

  private static key = (memberId: number, id: string) => `${memberId}:${id}`;

  /** Drops what nobody touched within the time to live (entries are few: one pass is cheap). */
  private sweep(): void {
    const old = this.now() - this.ttlMs;
    for (const [k, e] of this.entries) if (e.touched < old) this.entries.delete(k);
  }

  private keepFew(memberId: number): void {
    const mine = [...this.entries.entries()].filter(([k]) => k.startsWith(`${memberId}:`)).sort((a, b) => a[1].touched - b[1].touched);
    for (const [k] of mine.slice(0, Math.max(0, mine.length - MAX_PROGRESS_PER_MEMBER + 1))) this.entries.delete(k);
  }

  /** Starts following one request; `id` undefined (a caller that asked for no progress) follows it unseen. */
  begin(memberId: number, id: string | undefined, phase: ProgressPhase): Progress {
    this.sweep();
    const entry: Entry = {
      view: { phase, done: 0, total: null, state: 'running' },
      touched: this.now(),
      controller: new AbortController(),
    };
    if (id !== undefined) {
      const key = ProgressBoard.key(memberId, id);
      if (this.entries.get(key)?.view.state === 'running') throw new AppError(409, 'progress.inUse');
      this.keepFew(memberId);
      this.entries.set(key, entry);
    }
    const touch = () => (entry.touched = this.now());
    const running = () => entry.view.state === 'running';
    return {
      signal: entry.controller.signal,
      phase: (p, total = null) => {
        if (!running()) return;
        entry.view = { ...entry.view, phase: p, done: 0, total };
        touch();
      },
      done: (n) => {
        if (!running()) return;
        entry.view.done = n;
        touch();
      },
      check: () => {
        if (entry.controller.signal.aborted) throw new AppError(409, 'progress.cancelled');
      },
      finish: () => {
        if (entry.controller.signal.aborted) throw new AppError(409, 'progress.cancelled');
        entry.view.state = 'done';
        touch();
      },
      fail: () => {
        if (!running()) return;
        entry.view.state = 'failed';
        touch();
      },
      abandon: () => {
        if (!running()) return;
        entry.view.state = 'cancelled';
        touch();
        entry.controller.abort();
      },
    };
  }

  /** The member's own entry; an id nothing has begun under (or another member's) reads as waiting. */
  view(memberId: number, id: string): ProgressView {
    this.sweep();
    const e = this.entries.get(ProgressBoard.key(memberId, id));
    return { ...(e?.view ?? WAITING) };
  }

  /** Cancels the member's running entry; answers its state afterwards (done or failed ones stay so). */
  cancel(memberId: number, id: string): ProgressView | undefined {
    this.sweep();
    const e = this.entries.get(ProgressBoard.key(memberId, id));
    if (!e) return undefined;
    if (e.view.state === 'running') {
      e.view.state = 'cancelled';
      e.touched = this.now();
      e.controller.abort();
    }
    return { ...e.view };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This server's progress of exports and imports (see registerProgressRoutes). */
    progressBoard: ProgressBoard;
  }
}
