/**
 * Batched, durable position writes. Sessions hand over the records of one message and get a
 * promise that settles once the batch holding them is committed: only then is the message
 * acknowledged (0x8001), so a terminal retries whatever a crash lost and the primary key absorbs
 * what it sends twice. Batches are one statement over unnest arrays (a VALUES list is capped at
 * 65,535 parameters), which also upserts the latest state per vehicle.
 */

import { EventEmitter } from 'node:events';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/tables';
import type { PositionRecord, TerminalIdentity } from './records';

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
}

export interface StoredBatch {
  /** Records written for the first time, with their source (duplicates are left out). */
  inserted: Array<{ source: TerminalIdentity; record: PositionRecord }>;
}

export interface WriterStats {
  received: number;
  inserted: number;
  duplicates: number;
  batches: number;
  failedBatches: number;
}

interface Entry {
  source: TerminalIdentity;
  records: PositionRecord[];
  resolve: () => void;
  reject: (e: Error) => void;
}

/**
 * Events: 'stored' (StoredBatch) after each commit, 'saturated' / 'drain' when the queue crosses
 * the high / low water marks.
 */
export class PositionWriter extends EventEmitter {
  readonly stats: WriterStats = { received: 0, inserted: 0, duplicates: 0, batches: 0, failedBatches: 0 };
  private readonly batchSize: number;
  private readonly lingerMs: number;
  private readonly concurrency: number;
  private readonly highWater: number;
  private readonly lowWater: number;
  /** FIFO as array + head index: Array#shift is O(n) on long queues, which stalled the loop. */
  private queue: Entry[] = [];
  private head = 0;
  private queued = 0;
  private inFlight = 0;
  private timer: NodeJS.Timeout | undefined;
  private saturatedNow = false;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly db: Kysely<DB>,
    opts: WriterOptions = {},
  ) {
    super();
    this.batchSize = opts.batchSize ?? 2000;
    this.lingerMs = opts.lingerMs ?? 10;
    this.concurrency = opts.concurrency ?? 1;
    this.highWater = opts.highWater ?? 20_000;
    this.lowWater = opts.lowWater ?? Math.floor(this.highWater / 2);
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
  add(source: TerminalIdentity, records: PositionRecord[]): Promise<void> {
    if (!records.length) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.queue.push({ source, records, resolve, reject });
      this.queued += records.length;
      this.stats.received += records.length;
      if (!this.saturatedNow && this.queued >= this.highWater) {
        this.saturatedNow = true;
        this.emit('saturated');
      }
      this.schedule();
    });
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
      const batch: Entry[] = [];
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

  private async write(batch: Entry[]): Promise<void> {
    const rows = batch.flatMap((e) => e.records.map((record) => ({ source: e.source, record })));
    try {
      const keys = await insertPositions(this.db, rows.map((r) => r.record));
      this.stats.batches++;
      this.stats.inserted += keys.size;
      this.stats.duplicates += rows.length - keys.size;
      for (const e of batch) e.resolve();
      if (keys.size && this.listenerCount('stored')) {
        const inserted = rows.filter((r) => keys.has(keyOf(r.record.terminalId, r.record.deviceTime)));
        this.emit('stored', { inserted } satisfies StoredBatch);
      }
    } catch (err) {
      this.stats.failedBatches++;
      const e = err instanceof Error ? err : new Error(String(err));
      for (const x of batch) x.reject(e);
      this.emit('error', e);
    }
  }
}

const keyOf = (terminalId: number, ms: number) => `${terminalId}|${ms}`;

/**
 * One statement: insert the positions (duplicates of the key ignored) and move each vehicle's
 * latest state forward when a newer device time arrives. Returns the keys actually inserted.
 */
export async function insertPositions(db: Kysely<DB>, records: PositionRecord[]): Promise<Set<string>> {
  const col = <T>(f: (r: PositionRecord) => T): T[] => records.map(f);
  const times = col((r) => new Date(r.deviceTime).toISOString());
  const result = await sql<{ terminal_id: number; ms: number }>`
    WITH input AS (
      SELECT * FROM unnest(
        ${col((r) => r.terminalId)}::int[], ${times}::timestamptz[], ${col((r) => r.vehicleId)}::int[],
        ${col((r) => r.latitude)}::float8[], ${col((r) => r.longitude)}::float8[], ${col((r) => r.altitude)}::int[],
        ${col((r) => r.speed)}::real[], ${col((r) => r.direction)}::int[], ${col((r) => r.alarm)}::bigint[],
        ${col((r) => r.status)}::bigint[], ${col((r) => r.acc)}::boolean[], ${col((r) => r.fixed)}::boolean[],
        ${col((r) => r.mileageKm)}::float8[], ${col((r) => r.fuelL)}::float8[], ${col((r) => r.blind)}::boolean[],
        ${col((r) => (r.extras ? JSON.stringify(r.extras) : null))}::text[],
        ${col((r) => (r.dtcs ? r.dtcs.join(',') : null))}::text[]
      ) AS t(terminal_id, device_time, vehicle_id, latitude, longitude, altitude, speed, direction, alarm,
             status, acc, fixed, mileage_km, fuel_l, blind, extras, dtcs)
    ),
    ins AS (
      INSERT INTO position (terminal_id, device_time, vehicle_id, latitude, longitude, altitude, speed, direction,
                            alarm, status, acc, fixed, mileage_km, fuel_l, blind, extras)
      SELECT terminal_id, device_time, vehicle_id, latitude, longitude, altitude, speed, direction,
             alarm, status, acc, fixed, mileage_km, fuel_l, blind, extras::jsonb
      FROM input
      ON CONFLICT (terminal_id, device_time) DO NOTHING
      RETURNING terminal_id, device_time
    ),
    latest AS (
      INSERT INTO vehicle_state (vehicle_id, terminal_id, device_time, latitude, longitude, speed, direction,
                                 alarm, status, acc, mileage_km, fuel_l, dtcs)
      SELECT DISTINCT ON (i.vehicle_id) i.vehicle_id, i.terminal_id, i.device_time, i.latitude, i.longitude, i.speed,
             i.direction, i.alarm, i.status, i.acc, i.mileage_km, i.fuel_l, string_to_array(i.dtcs, ',')
      FROM input i
      -- A vehicle deleted meanwhile must not fail the batch (its positions are still kept).
      JOIN vehicle v ON v.id = i.vehicle_id
      ORDER BY i.vehicle_id, i.device_time DESC
      ON CONFLICT (vehicle_id) DO UPDATE SET
        terminal_id = excluded.terminal_id, device_time = excluded.device_time, received_at = now(),
        latitude = excluded.latitude, longitude = excluded.longitude, speed = excluded.speed,
        direction = excluded.direction, alarm = excluded.alarm, status = excluded.status, acc = excluded.acc,
        mileage_km = COALESCE(excluded.mileage_km, vehicle_state.mileage_km),
        fuel_l = COALESCE(excluded.fuel_l, vehicle_state.fuel_l),
        dtcs = COALESCE(excluded.dtcs, vehicle_state.dtcs)
      WHERE vehicle_state.device_time < excluded.device_time
      RETURNING 1
    )
    SELECT terminal_id, (extract(epoch FROM device_time) * 1000)::float8 AS ms FROM ins`.execute(db);
  return new Set(result.rows.map((r) => keyOf(r.terminal_id, Math.round(Number(r.ms)))));
}
