/**
 * Month partitions of the telematics time series (migration 2026112216000000_partition_positions):
 * on start and daily, the partitions of this month and the next ones are created ahead of the
 * reports that need them; rows a DEFAULT partition took for a month (a terminal whose clock was
 * wrong) move into that month's partition when it is created; with a retention, month partitions
 * older than it are dropped whole. Months are UTC months; partitions are named <table>_pYYYYMM.
 */

import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../platform/db/tables';

/** Tables partitioned by month of device_time, each with a `<table>_default` partition. */
export const MONTHLY_TABLES = ['position', 'obd_record', 'obd_dtc'] as const;
export type MonthlyTable = (typeof MONTHLY_TABLES)[number];

/** Serialises maintenance across server processes sharing one PostgreSQL database. */
const LOCK_KEY = 808_816;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A UTC month as year × 12 + month index (0-11), so month arithmetic is integer arithmetic. */
export type Month = number;

export const monthOf = (d: Date): Month => d.getUTCFullYear() * 12 + d.getUTCMonth();
export const monthStart = (m: Month): Date => new Date(Date.UTC(Math.floor(m / 12), m % 12, 1));

export function partitionName(table: MonthlyTable, m: Month): string {
  return `${table}_p${String(Math.floor(m / 12)).padStart(4, '0')}${String((m % 12) + 1).padStart(2, '0')}`;
}

/** The month a partition name of ours stands for, or null for any other name (the default). */
export function monthOfPartition(table: MonthlyTable, name: string): Month | null {
  const hit = new RegExp(`^${table}_p(\\d{4})(\\d{2})$`).exec(name);
  if (!hit) return null;
  const month = Number(hit[2]);
  return month >= 1 && month <= 12 ? Number(hit[1]) * 12 + month - 1 : null;
}

export interface MaintenanceOptions {
  /** The clock (tests move it); default now. */
  now?: Date;
  /** Months after the current one to create partitions for (default 2). */
  monthsAhead?: number;
  /**
   * Keep the current month and this many before it; older month partitions are dropped whole.
   * Null or absent: keep everything. Rows in the DEFAULT partition are never dropped.
   */
  retentionMonths?: number | null;
}

export interface MaintenanceResult {
  /** Partitions created. */
  created: string[];
  /** Rows moved out of a DEFAULT partition into a partition created for their month. */
  moved: Array<{ partition: string; rows: number }>;
  /** Partitions dropped by the retention. */
  dropped: string[];
  /** Operations that failed (each retried on the next pass). */
  failed: Array<{ partition: string; error: string }>;
}

/** Partition names of a table (its month partitions and its default). */
export async function partitionsOf(db: Kysely<DB>, table: MonthlyTable): Promise<string[]> {
  const r = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = ${table}::regclass ORDER BY c.relname`.execute(db);
  return r.rows.map((x) => x.name);
}

/**
 * Creates the partition of one month unless it exists, moving the rows the DEFAULT partition holds
 * for that month into it; returns the rows moved, or null when the partition already existed.
 *
 * PostgreSQL refuses a partition whose range has rows in the default, so the partition is built as
 * a plain table, filled from the default and attached, in one transaction. Attaching also needs
 * only SHARE UPDATE EXCLUSIVE on the parent where CREATE … PARTITION OF takes ACCESS EXCLUSIVE, so
 * writers of other months and readers carry on meanwhile. The default is locked against writes
 * first: a row for this month arriving between the move and the attach would fail the attach. A
 * writer that routed a row to the default before the attach committed is refused once it has
 * (attachRace.ts): the store functions run such a statement again.
 */
export async function createMonthPartition(db: Kysely<DB>, table: MonthlyTable, m: Month): Promise<number | null> {
  const name = partitionName(table, m);
  const from = monthStart(m);
  const to = monthStart(m + 1);
  return db.transaction().execute(async (trx: Transaction<DB>) => {
    await sql`SELECT pg_advisory_xact_lock(${LOCK_KEY})`.execute(trx);
    const found = await sql<{ attached: boolean }>`
      SELECT EXISTS (SELECT 1 FROM pg_inherits WHERE inhrelid = c.oid AND inhparent = ${table}::regclass) AS attached
      FROM pg_class c WHERE c.oid = to_regclass(${name})`.execute(trx);
    if (found.rows[0]?.attached) return null;
    // A table of that name that is no partition of ours: someone else's; never taken over.
    if (found.rows.length) throw new Error(`${name} exists and is not a partition of ${table}`);
    const parent = sql.id(table);
    const part = sql.id(name);
    const fallback = sql.id(`${table}_default`);
    // Parent before default: the order writers take them in, so the two never wait on each other.
    await sql`LOCK TABLE ONLY ${parent} IN SHARE UPDATE EXCLUSIVE MODE`.execute(trx);
    await sql`LOCK TABLE ${fallback} IN EXCLUSIVE MODE`.execute(trx);
    await sql`CREATE TABLE ${part} (LIKE ${parent} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`.execute(trx);
    const moved = await sql`
      WITH moved AS (DELETE FROM ${fallback} WHERE device_time >= ${sql.lit(from)} AND device_time < ${sql.lit(to)} RETURNING *)
      INSERT INTO ${part} SELECT * FROM moved`.execute(trx);
    await sql`ALTER TABLE ${parent} ATTACH PARTITION ${part} FOR VALUES FROM (${sql.lit(from)}) TO (${sql.lit(to)})`.execute(trx);
    return Number(moved.numAffectedRows ?? 0);
  });
}

/** Drops one month partition (its rows go with it). */
async function dropPartition(db: Kysely<DB>, name: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${LOCK_KEY})`.execute(trx);
    await sql`DROP TABLE IF EXISTS ${sql.id(name)}`.execute(trx);
  });
}

/** Deletes the replay levels' buckets before `before` (the oldest month the retention keeps). */
async function pruneTrackLevels(db: Kysely<DB>, before: Date): Promise<void> {
  await sql`DELETE FROM track_minute WHERE minute < ${before}`.execute(db);
}

/**
 * One maintenance pass over every monthly table: partitions of the current month and the next
 * `monthsAhead` created (rows waiting in the default moved in), and with a retention the month
 * partitions older than it dropped. A failed step is reported and retried on the next pass.
 */
export async function maintainPartitions(db: Kysely<DB>, opts: MaintenanceOptions = {}): Promise<MaintenanceResult> {
  const current = monthOf(opts.now ?? new Date());
  const ahead = opts.monthsAhead ?? 2;
  const keep = opts.retentionMonths ?? null;
  if (!Number.isInteger(ahead) || ahead < 0) throw new Error(`monthsAhead must be a whole number >= 0, got ${ahead}`);
  if (keep !== null && (!Number.isInteger(keep) || keep < 1)) throw new Error(`retentionMonths must be a whole number >= 1, got ${keep}`);
  const result: MaintenanceResult = { created: [], moved: [], dropped: [], failed: [] };
  const attempt = async (partition: string, step: () => Promise<void>) => {
    try {
      await step();
    } catch (e) {
      result.failed.push({ partition, error: e instanceof Error ? e.message : String(e) });
    }
  };
  for (const table of MONTHLY_TABLES) {
    const existing = new Set(await partitionsOf(db, table));
    for (let m = current; m <= current + ahead; m++) {
      const name = partitionName(table, m);
      if (existing.has(name)) continue;
      await attempt(name, async () => {
        const rows = await createMonthPartition(db, table, m);
        if (rows === null) return;
        result.created.push(name);
        if (rows > 0) result.moved.push({ partition: name, rows });
      });
    }
    if (keep === null) continue;
    for (const name of existing) {
      const m = monthOfPartition(table, name);
      if (m === null || m >= current - keep) continue;
      await attempt(name, async () => {
        await dropPartition(db, name);
        result.dropped.push(name);
      });
    }
  }
  // The replay's levels summarise positions: they go with the months whose positions went, so a
  // simplified replay never shows a track the raw replay no longer has.
  if (keep !== null) await attempt('track_minute', () => pruneTrackLevels(db, monthStart(current - keep)));
  return result;
}

/** Where maintenance reports what it did (the app's pino logger fits). */
export interface MaintenanceLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface PartitionMaintenance {
  /** The first pass (run on start); null when it threw. */
  ready: Promise<MaintenanceResult | null>;
  /** Stops the daily passes and waits for a running one to finish. */
  stop(): Promise<void>;
}

/** Runs a pass now and then once a day until stopped. */
export function startPartitionMaintenance(
  db: Kysely<DB>,
  opts: Omit<MaintenanceOptions, 'now'> & { log: MaintenanceLog; intervalMs?: number; clock?: () => Date },
): PartitionMaintenance {
  const { log, intervalMs, clock, ...passOptions } = opts;
  let running: Promise<MaintenanceResult | null> = Promise.resolve(null);
  const pass = () => {
    running = running.then(async () => {
      try {
        const r = await maintainPartitions(db, { ...passOptions, now: clock?.() });
        if (r.created.length || r.dropped.length)
          log.info({ created: r.created, moved: r.moved, dropped: r.dropped }, 'time-series partitions maintained');
        if (r.failed.length) log.warn({ failed: r.failed }, 'time-series partition maintenance failed in part');
        return r;
      } catch (err) {
        log.warn({ err }, 'time-series partition maintenance failed');
        return null;
      }
    });
    return running;
  };
  const ready = pass();
  const timer = setInterval(() => void pass(), intervalMs ?? DAY_MS);
  // The daily pass never keeps the process alive on its own.
  timer.unref();
  return {
    ready,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
