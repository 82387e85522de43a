/**
 * Batched, durable writes of what terminals report. Sessions hand over the records of one message
 * and get a promise that settles once the batch holding them is committed: only then is the
 * message acknowledged (0x8001), so a terminal retries whatever a crash lost and the table's key
 * absorbs what it sends twice. Each kind of record (positions, OBD records) has its own writer
 * with its own one-statement insert. A batch that fails because the database is away (restarting,
 * unreachable) is not dropped: it is written again, with backoff, until the database is back; the
 * queue meanwhile reaches the high-water mark and sessions stop reading, so terminals get no
 * acknowledgement and slow down rather than lose anything.
 */

import { EventEmitter } from 'node:events';
import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import { isTransientDbError } from '../../platform/db/transient';
import type { StoredRecords, TerminalIdentity } from '../../platform/telemetry';

export type { StoredRecords };

export interface WriterOptions {
  /** Records per statement (default 2,000). */
  batchSize?: number;
  /** How long a partial batch waits for more records, ms (default 10). */
  lingerMs?: number;
  /** Statements in flight at once (default 1; PGlite has a single connection anyway). */
  concurrency?: number;
  /** Queued records above which sessions pause their sockets (default 20,000). */
  highWater?: number;
  /** Queued records below which they resume (default highWater / 2). */
  lowWater?: number;
  /** Longest wait between two attempts at a batch while the database is away, ms (default 2,000). */
  retryMaxDelayMs?: number;
}

export interface WriterStats {
  received: number;
  inserted: number;
  duplicates: number;
  batches: number;
  failedBatches: number;
  /** Attempts repeated because the database was away. */
  retries: number;
}

/** How one kind of record is stored: one statement per batch, answering the keys it inserted. */
export interface RecordStore<R> {
  insert(db: Kysely<DB>, records: R[]): Promise<Set<string>>;
  /** The record's key as `insert` reports it. */
  keyOf(record: R): string;
}

/** Called once, when the records' batch is committed (null) or has failed. */
export type StoredCallback = (error: Error | null) => void;

interface Entry<R> {
  source: TerminalIdentity;
  records: R[];
  done: StoredCallback;
}

/**
 * Calls every entry's callback even when one throws (a bug in it must not leave the others
 * unanswered); the first error is thrown again afterwards, as loudly as a promise handler's would be.
 */
function answer<R>(batch: Entry<R>[], error: Error | null): void {
  let first: { error: unknown } | undefined;
  for (const e of batch) {
    try {
      e.done(error);
    } catch (x) {
      first ??= { error: x };
    }
  }
  if (first) throw first.error;
}

/**
 * Events: 'stored' (StoredRecords) after each commit, 'saturated' / 'drain' when the queue crosses
 * the high / low water marks, 'error' when a batch fails (or first fails while the database is
 * away: it is retried), 'recovered' when a retried batch got through.
 */
export class BatchWriter<R> extends EventEmitter {
  readonly stats: WriterStats = { received: 0, inserted: 0, duplicates: 0, batches: 0, failedBatches: 0, retries: 0 };
  private readonly batchSize: number;
  private readonly lingerMs: number;
  private readonly concurrency: number;
  private readonly highWater: number;
  private readonly lowWater: number;
  private readonly retryMaxDelayMs: number;
  /** Set when shutting down: a batch waiting for the database fails instead (the terminals resend). */
  private giveUp = false;
  private readonly retryWaits = new Set<() => void>();
  /** FIFO as array + head index: Array#shift is O(n) on long queues, which stalled the loop. */
  private queue: Entry<R>[] = [];
  private head = 0;
  private queued = 0;
  private inFlight = 0;
  private timer: NodeJS.Timeout | undefined;
  private saturatedNow = false;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly db: Kysely<DB>,
    private readonly store: RecordStore<R>,
    opts: WriterOptions = {},
  ) {
    super();
    this.batchSize = opts.batchSize ?? 2000;
    this.lingerMs = opts.lingerMs ?? 10;
    this.concurrency = opts.concurrency ?? 1;
    this.highWater = opts.highWater ?? 20_000;
    this.lowWater = opts.lowWater ?? Math.floor(this.highWater / 2);
    this.retryMaxDelayMs = opts.retryMaxDelayMs ?? 2000;
  }

  /**
   * Stops waiting for an away database (shutdown): batches being retried fail now, unacknowledged,
   * so flush() ends; their terminals send them again to whichever process serves them next.
   */
  stopRetrying(): void {
    this.giveUp = true;
    for (const wake of [...this.retryWaits]) wake();
  }

  /** True while sessions should stop reading. */
  get saturated(): boolean {
    return this.saturatedNow;
  }

  /** Records waiting for a batch. */
  get queuedRecords(): number {
    return this.queued;
  }

  /** Resolves once these records are committed; rejects when their batch failed. */
  add(source: TerminalIdentity, records: R[]): Promise<void> {
    return new Promise((resolve, reject) => this.enqueue(source, records, (e) => (e ? reject(e) : resolve())));
  }

  /**
   * `add` with a callback, for the gateway's per-message path: no promises per message (they were
   * a measurable share of the gateway's CPU). `done` runs once, never synchronously.
   */
  enqueue(source: TerminalIdentity, records: R[], done: StoredCallback): void {
    if (!records.length) {
      queueMicrotask(() => done(null));
      return;
    }
    this.queue.push({ source, records, done });
    this.queued += records.length;
    this.stats.received += records.length;
    if (!this.saturatedNow && this.queued >= this.highWater) {
      this.saturatedNow = true;
      this.emit('saturated');
    }
    this.schedule();
  }

  /** Resolves when everything queued so far is committed (or failed). */
  flush(): Promise<void> {
    if (!this.queued && !this.inFlight) return Promise.resolve();
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const done = new Promise<void>((r) => this.idleWaiters.push(r));
    this.pump(true);
    return done;
  }

  private schedule(): void {
    if (this.queued >= this.batchSize) {
      this.pump(false);
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.pump(true);
    }, this.lingerMs);
  }

  /** Start batches while there is room; `partial` allows a batch below batchSize. */
  private pump(partial: boolean): void {
    while (this.inFlight < this.concurrency && this.queued > 0 && (partial || this.queued >= this.batchSize)) {
      const batch: Entry<R>[] = [];
      let n = 0;
      // Whole messages only, so one message is acknowledged from one commit.
      while (this.head < this.queue.length && (n === 0 || n + this.queue[this.head].records.length <= this.batchSize)) {
        const e = this.queue[this.head++];
        batch.push(e);
        n += e.records.length;
      }
      if (this.head === this.queue.length) {
        this.queue = [];
        this.head = 0;
      } else if (this.head > 4096 && this.head * 2 > this.queue.length) {
        this.queue = this.queue.slice(this.head);
        this.head = 0;
      }
      this.queued -= n;
      this.inFlight++;
      void this.write(batch).finally(() => {
        this.inFlight--;
        if (this.saturatedNow && this.queued <= this.lowWater) {
          this.saturatedNow = false;
          this.emit('drain');
        }
        // Records that queued up during this write have waited long enough: write them now.
        if (this.queued > 0) this.pump(true);
        if (!this.queued && !this.inFlight) for (const w of this.idleWaiters.splice(0)) w();
      });
    }
  }

  private async write(batch: Entry<R>[]): Promise<void> {
    const records = batch.length === 1 ? batch[0].records : batch.flatMap((e) => e.records);
    let keys: Set<string>;
    try {
      keys = await this.insertRetrying(records);
    } catch (err) {
      this.stats.failedBatches++;
      const e = err instanceof Error ? err : new Error(String(err));
      this.emit('error', e);
      answer(batch, e);
      return;
    }
    this.stats.batches++;
    this.stats.inserted += keys.size;
    this.stats.duplicates += records.length - keys.size;
    // Committed, whatever a 'stored' listener does: every message of the batch is answered.
    try {
      if (keys.size && this.listenerCount('stored')) {
        const inserted: StoredRecords<R>['inserted'] = [];
        // As many keys inserted as records: every record was (the keys are the records' own, each
        // once), so no key is built and looked up per record (that loop was ~3 % of a worker's CPU).
        const all = keys.size === records.length;
        for (const e of batch)
          for (const record of e.records) if (all || keys.has(this.store.keyOf(record))) inserted.push({ source: e.source, record });
        this.emit('stored', { inserted } satisfies StoredRecords<R>);
      }
    } catch (err) {
      this.stats.failedBatches++;
      this.emit('error', err instanceof Error ? err : new Error(String(err)));
    } finally {
      answer(batch, null);
    }
  }

  /** One batch's insert, repeated while the database is away (never when the statement is at fault). */
  private async insertRetrying(records: R[]): Promise<Set<string>> {
    for (let attempt = 0; ; attempt++) {
      try {
        const keys = await this.store.insert(this.db, records);
        if (attempt > 0) this.emit('recovered', attempt);
        return keys;
      } catch (err) {
        if (this.giveUp || !isTransientDbError(err)) throw err;
        if (attempt === 0) this.emit('error', err instanceof Error ? err : new Error(String(err)));
        this.stats.retries++;
        const delay = Math.min(this.retryMaxDelayMs, 50 * 2 ** attempt);
        await new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(timer);
            this.retryWaits.delete(wake);
            resolve();
          };
          const timer = setTimeout(wake, delay);
          this.retryWaits.add(wake);
        });
      }
    }
  }
}
