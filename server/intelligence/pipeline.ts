/**
 * The derivation pipeline (DESIGN.md "Derived data"): committed reports append a mark of their
 * vehicle's stored range to `derive_mark` (persisted, so a crash loses nothing); a worker locks the
 * `derive_state` rows of the vehicles with marks, takes their marks, widens each range to the
 * boundaries of the derived rows it touches, reads that window in device-time order and lets every
 * registered deriver delete and rebuild its rows of the window in one transaction, then moves the
 * vehicle's watermark. Marks are only ever inserted, so a commit's mark never waits for a pass.
 * A late or blind-area report (older than the watermark) is simply a pending range in the past:
 * the same rebuild, so rows never depend on arrival order, and running it twice changes nothing.
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../platform/db/tables';
import type { HeldWrite } from '../platform/db/replaceRows';
import {
  boundOf,
  firstAtOrAfter,
  timeSlice,
  type DeriveWindow,
  type Deriver,
  type TimeRange,
  type VehicleContext,
  type VehicleRange,
} from './deriver';
import { contextsOf, loadVehicleContexts, loadWindows, vehicleContextRows, type ContextRow } from './windowLoad';
import { dayStart, localDay } from './localDay';
import { judgedFromSql, SettingsCache, settingVersionColumns, type DerivePass, type SettingVersions } from './settingsCache';
import { DEFAULT_HELD_LIMITS, heldFrom, HeldWindows, newestOf, type HeldLimits, type HeldWindow } from './heldWindows';

/** What a store commit tells the pipeline: per vehicle, the device times it stored. */
export interface StoredSpan {
  vehicleId: number;
  /** Epoch ms. */
  from: number;
  to: number;
  count: number;
}

export interface PipelineLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface PipelineOptions {
  db: Kysely<DB>;
  derivers: Deriver[];
  /** IANA zone of local days (FLEET_TIMEZONE). */
  timeZone: string;
  log?: PipelineLog;
  /** How long marks gather before a pass (ms, default DEFAULT_LINGER_MS): a burst of batches makes one window per vehicle. */
  lingerMs?: number;
  /** Vehicles derived together in one transaction (default DEFAULT_BATCH, by `oneConnection`). */
  batchSize?: number;
  /** The database has one connection (PGlite): every statement of the store waits for a pass's transaction. */
  oneConnection?: boolean;
  /**
   * Batches derived at once, each in its own transaction over disjoint vehicles (default 1): with a
   * pool of connections, one batch's statements wait on the database while another's run.
   */
  workers?: number;
  /**
   * How much of the vehicles' last windows is kept between passes (heldWindows.ts), so a live pass
   * reads only the reports stored since; `false` reads every window whole (tests compare both).
   */
  hold?: HeldLimits | false;
  /** How long marks that failed to be written wait before the next try (ms, default 1000). */
  markRetryMs?: number;
}

/**
 * Every deriver's statements serve a whole batch, so a pass over many vehicles with a few reports
 * each costs per batch more than per vehicle: 256 derived 2,000 vehicles at 0.48 ms each where 32
 * took 1.6 ms, and batches of one pass run one after another, so the last waits for all before it.
 * With a pool of connections 1,024 took pass-raised alarms at 400 and 2,000 vehicles from p99 ~1.0
 * and 2.3–3.1 s to 0.7 and 2.0–2.2 s (README, Alarms). On one connection (PGlite) the store waits
 * for each batch's transaction, so batches stay small enough to commit within ~150 ms.
 */
const DEFAULT_BATCH = { pooled: 1024, oneConnection: 256 } as const;

/**
 * How long marks gather before a pass when none is running. Every alarm comes from the pass (no
 * path beside it), so this is the floor of report → alarm at a quiet moment; under load passes run
 * back to back and it does not apply.
 */
const DEFAULT_LINGER_MS = 50;

export interface PipelineStats {
  marks: number;
  windows: number;
  positionsDerived: number;
  /** Positions read from the database for the windows (the rest came from the held windows). */
  positionsRead: number;
  failures: number;
  /** Positions handed to each deriver (by name): what one that walks its window whole walks. */
  positionsHanded: Record<string, number>;
  /** Milliseconds spent per phase ('extend', 'read', each deriver's name, 'watermark'): where a pass goes. */
  phaseMs: Record<string, number>;
  /** Batches derived (each one transaction), and the longest one's milliseconds: what a report may wait behind. */
  batches: number;
  longestBatchMs: number;
}

/** Stats before the first pass. */
export const noStats = (): PipelineStats => ({
  marks: 0,
  windows: 0,
  positionsDerived: 0,
  positionsRead: 0,
  failures: 0,
  positionsHanded: {},
  phaseMs: {},
  batches: 0,
  longestBatchMs: 0,
});

interface DeriveStateRow {
  vehicle_id: number;
  watermark: Date | null;
  derived_seq: string | number;
}

/** One vehicle's share of a pass: its range, and for the worker the marks it took. */
interface PassWork {
  vehicleId: number;
  range: TimeRange;
  /**
   * The worker's (absent for a rebuild outside it): where the marks taken begin and the newest time
   * they cover, and the sequence derived last, which decide whether a held window still serves. The pass writes derivedSeq + 1.
   */
  taken?: { from: number; to: number; derivedSeq: number; snapshot: string };
}

/** A window a committed pass may hold for the next. */
interface ToHold {
  window: DeriveWindow;
  through: number;
  seq: number;
}

const ms = (d: Date | string | null) => (d === null ? null : new Date(d).getTime());

/**
 * The part of a window a deriver widened to itself: from `range.from` on (with the position before
 * it) and before `range.to` (with the first position at or after it). A deriver never sees what only
 * a later deriver's widening brought in: its rows there are unchanged by its own account, and
 * rebuilding them from a window cut in the middle of one (a trip reaching past the end) would
 * truncate them.
 */
function windowWithin(w: DeriveWindow, range: TimeRange): DeriveWindow {
  const cutFrom = range.from > w.from;
  const cutTo = range.to < w.to;
  if (!cutFrom && !cutTo) return w;
  const i = cutFrom ? firstAtOrAfter(w.positions, range.from) : 0;
  const j = cutTo ? firstAtOrAfter(w.positions, range.to) : w.positions.length;
  return {
    ...w,
    from: cutFrom ? range.from : w.from,
    to: cutTo ? range.to : w.to,
    positions: i > 0 || j < w.positions.length ? w.positions.slice(i, j) : w.positions,
    obdRecords: timeSlice(w.obdRecords, cutFrom ? range.from : -Infinity, cutTo ? range.to : Infinity),
    before: i > 0 ? w.positions[i - 1] : w.before,
    after: j < w.positions.length ? w.positions[j] : w.after,
  };
}

/**
 * Locks the vehicles' derive_state rows (creating those missing, unless `known` says every one
 * exists: a live pass's case, one statement less) in vehicle order, so two passes over overlapping
 * batches, in one process or several, wait for each other instead of deadlocking. Vehicles deleted
 * meanwhile have none; a row gone otherwise (by hand) is created again.
 */
async function lockStates(trx: Kysely<DB>, vehicleIds: readonly number[], known?: ReadonlySet<number>): Promise<DeriveStateRow[]> {
  const all = known && vehicleIds.every((v) => known.has(v));
  if (!all)
    await sql`
    INSERT INTO derive_state (vehicle_id)
    SELECT v.id FROM vehicle v WHERE v.id = ANY(${vehicleIds}::int[]) ORDER BY v.id
    ON CONFLICT (vehicle_id) DO NOTHING`.execute(trx);
  const rows = (
    await sql<DeriveStateRow>`
    SELECT vehicle_id, watermark, derived_seq FROM derive_state
    WHERE vehicle_id = ANY(${vehicleIds}::int[]) ORDER BY vehicle_id FOR UPDATE`.execute(trx)
  ).rows;
  return all && rows.length < vehicleIds.length ? lockStates(trx, vehicleIds) : rows;
}

export class DerivationPipeline {
  readonly stats: PipelineStats = noStats();
  private readonly derivers: readonly Deriver[];
  private readonly queue = new Set<number>();
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Marks being written: idle() waits for them too. */
  private marking = new Set<Promise<void>>();
  /** Marks not written yet, merged per vehicle; and the loop writing them, while it runs. */
  private readonly unmarked = new Map<number, StoredSpan>();
  private markLoop: Promise<void> | null = null;
  /** Who waits for the spans in `unmarked` to be written. */
  private markWaiters: Array<() => void> = [];
  private idleWaiters: Array<() => void> = [];
  private readonly held: HeldWindows | null;
  /** Vehicles whose derive_state row a committed pass locked (it goes only with the vehicle). */
  private readonly stated = new Set<number>();
  /** Policies, fences, safety settings and prices held between passes (checked against their tables' versions each pass). */
  readonly settings = new SettingsCache();

  constructor(private readonly opts: PipelineOptions) {
    const names = new Set<string>();
    for (const d of opts.derivers) {
      if (names.has(d.name)) throw new Error(`two derivers named ${d.name}`);
      names.add(d.name);
    }
    this.derivers = [...opts.derivers];
    this.held = opts.hold === false ? null : new HeldWindows(opts.hold ?? DEFAULT_HELD_LIMITS);
  }

  /**
   * Picks up what a previous process left: vehicles with marks, and vehicles whose newest stored
   * position lies beyond their watermark (stored, then crashed before marking).
   */
  async start(): Promise<void> {
    await sql`
      INSERT INTO derive_mark (vehicle_id, pending_from, pending_to)
      SELECT s.vehicle_id, COALESCE(d.watermark, 'epoch'::timestamptz), s.device_time
      FROM vehicle_state s LEFT JOIN derive_state d ON d.vehicle_id = s.vehicle_id
      WHERE d.watermark IS NULL OR d.watermark < s.device_time`.execute(this.opts.db);
    const r = await sql<{ vehicle_id: number }>`SELECT DISTINCT vehicle_id FROM derive_mark`.execute(this.opts.db);
    for (const row of r.rows) this.queue.add(row.vehicle_id);
    if (this.queue.size) this.opts.log?.info({ vehicles: this.queue.size }, 'derivation resumes');
    this.schedule();
  }

  /**
   * Records what a commit stored (persisted first) and schedules a pass. Marks arriving while one
   * is written are merged per vehicle and written together next: one insert per turn of the event
   * loop rather than one per commit. Resolves once these spans are written (or given up by stop()),
   * not when the loop ends: under steady load it may never be idle.
   */
  mark(spans: StoredSpan[]): Promise<void> {
    if (!spans.length || this.stopped) return Promise.resolve();
    this.unmark(spans);
    const written = new Promise<void>((r) => this.markWaiters.push(r));
    if (!this.markLoop) this.startMarkLoop();
    return written;
  }

  private startMarkLoop(): void {
    const p = this.writeMarks();
    this.markLoop = p;
    this.marking.add(p);
    void p.finally(() => {
      this.markLoop = null;
      this.marking.delete(p);
      // Spans merged as the loop was ending would otherwise wait for the next commit's mark.
      if (this.unmarked.size && !this.stopped) this.startMarkLoop();
      else this.wakeIdle();
    });
  }

  /** Merges spans into those waiting to be written, per vehicle. */
  private unmark(spans: readonly StoredSpan[]): void {
    for (const s of spans) {
      const u = this.unmarked.get(s.vehicleId);
      if (u) {
        u.from = Math.min(u.from, s.from);
        u.to = Math.max(u.to, s.to);
        u.count += s.count;
      } else this.unmarked.set(s.vehicleId, { ...s });
    }
  }

  private async writeMarks(): Promise<void> {
    await new Promise((r) => setImmediate(r)); // gather the marks of this turn of the event loop
    // Marks taken before stop() are still written (stop waits for them): a pending range is kept.
    while (this.unmarked.size) {
      const spans = [...this.unmarked.values()];
      const waiters = this.markWaiters.splice(0);
      this.unmarked.clear();
      try {
        await this.persistMarks(spans);
        for (const s of spans) this.queue.add(s.vehicleId);
        this.schedule();
        for (const w of waiters) w();
      } catch (err) {
        this.stats.failures++;
        // The database is away (restarting, say): the spans wait and are written once it is back,
        // so a late upload stored just before is still derived. Stopping gives them up; the next
        // start finds only what lies beyond the watermark.
        this.opts.log?.warn({ err, vehicles: spans.length }, 'derivation mark failed; writing it again shortly');
        this.markWaiters.unshift(...waiters);
        if (this.stopped) break;
        this.unmark(spans);
        await new Promise((r) => setTimeout(r, this.opts.markRetryMs ?? 1000));
      }
    }
    // Given up (stopped while the database refused them): nobody waits for them any longer.
    if (this.stopped) for (const w of this.markWaiters.splice(0)) w();
  }

  private async persistMarks(spans: StoredSpan[]): Promise<void> {
    this.stats.marks += spans.length;
    const iso = (t: number) => new Date(t).toISOString();
    // Vehicles deleted meanwhile are skipped (the JOIN), not an error. An insert locks no row a
    // pass holds, so it never waits for one.
    await sql`
      INSERT INTO derive_mark (vehicle_id, pending_from, pending_to)
      SELECT i.vehicle_id, i.f, i.t
      FROM unnest(${spans.map((s) => s.vehicleId)}::int[], ${spans.map((s) => iso(s.from))}::timestamptz[], ${spans.map((s) => iso(s.to))}::timestamptz[]) AS i(vehicle_id, f, t)
      JOIN vehicle v ON v.id = i.vehicle_id`.execute(this.opts.db);
  }

  private schedule(): void {
    if (this.stopped || this.running || this.timer || !this.queue.size) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.drainQueue().finally(() => {
        this.running = null;
        if (this.queue.size) this.schedule();
        else this.wakeIdle();
      });
    }, this.opts.lingerMs ?? DEFAULT_LINGER_MS);
  }

  private async drainQueue(): Promise<void> {
    while (this.queue.size && !this.stopped) {
      const vehicles = [...this.queue];
      this.queue.clear();
      const batches: number[][] = [];
      for (let i = 0; i < vehicles.length; i += this.batchSize) batches.push(vehicles.slice(i, i + this.batchSize));
      // Each worker takes the next batch: a vehicle is in one batch, so workers never share one.
      const worker = async () => {
        for (let batch = batches.shift(); batch; batch = batches.shift()) await this.deriveBatch(batch);
      };
      await Promise.all(Array.from({ length: Math.min(this.workers, batches.length) }, worker));
    }
  }

  private async deriveBatch(batch: number[]): Promise<void> {
    if (this.stopped) {
      for (const v of batch) this.queue.add(v);
      return;
    }
    try {
      const t0 = performance.now();
      await this.derivePendingMany(batch);
      this.stats.batches++;
      this.stats.longestBatchMs = Math.max(this.stats.longestBatchMs, performance.now() - t0);
    } catch (err) {
      // One vehicle's failure must not hold the others back: each alone, and what still fails
      // stays pending in the table (the next start or `npm run derive` takes it again).
      if (batch.length === 1) this.failed(err, batch[0]);
      else
        for (const vehicleId of batch) {
          if (this.stopped) {
            this.queue.add(vehicleId);
            continue;
          }
          await this.derivePending(vehicleId).catch((e: unknown) => this.failed(e, vehicleId));
        }
    }
  }

  private failed(err: unknown, vehicleId: number): void {
    this.stats.failures++;
    this.opts.log?.warn({ err, vehicleId }, 'derivation failed');
  }

  private get workers(): number {
    return Math.max(1, this.opts.workers ?? 1);
  }

  private get batchSize(): number {
    return Math.max(1, this.opts.batchSize ?? (this.opts.oneConnection ? DEFAULT_BATCH.oneConnection : DEFAULT_BATCH.pooled));
  }

  /** Derives a vehicle's pending range, if any. */
  derivePending(vehicleId: number): Promise<void> {
    return this.derivePendingMany([vehicleId]);
  }

  /**
   * Derives the pending ranges of several vehicles in one transaction: each statement of the
   * window's reading, the trips and the ledger serves all of them at once.
   */
  private async derivePendingMany(vehicleIds: number[]): Promise<void> {
    const committed: Array<() => void> = [];
    let toHold: ToHold[];
    try {
      toHold = await this.opts.db.transaction().execute((trx) => this.derivePendingIn(trx, vehicleIds, committed));
    } catch (err) {
      // What a rolled-back pass read is not what the next may assume.
      this.held?.forget(vehicleIds);
      throw err;
    }
    for (const h of toHold) this.held?.keep(h.window, h.through, h.seq);
    for (const v of vehicleIds) this.stated.add(v);
    this.announce(committed);
  }

  /** The derivers' announcements of a committed pass; one that throws does not stop the others. */
  private announce(committed: ReadonlyArray<() => void>): void {
    for (const f of committed) {
      try {
        f();
      } catch (err) {
        this.opts.log?.warn({ err }, 'derivation announcement failed');
      }
    }
  }

  private async derivePendingIn(trx: Kysely<DB>, vehicleIds: number[], committed: Array<() => void>): Promise<ToHold[]> {
    const states = new Map((await lockStates(trx, vehicleIds, this.stated)).map((s) => [s.vehicle_id, s]));
    // The marks committed by now; later ones stay for the next pass (this one may not read their reports).
    // With the snapshot they were taken in: what it sees was judged by this pass's settings or older (newlyDecided.ts).
    const marks = (
      await sql<{ vehicle_id: number; f: Date; t: Date; snapshot: string } & SettingVersions & ContextRow>`
      WITH taken AS (DELETE FROM derive_mark WHERE vehicle_id = ANY(${vehicleIds}::int[]) RETURNING vehicle_id, pending_from, pending_to),
        m AS (SELECT vehicle_id, min(pending_from) AS f, max(pending_to) AS t FROM taken GROUP BY vehicle_id),
        c AS (${vehicleContextRows(sql`ARRAY(SELECT vehicle_id FROM m)`)})
      SELECT m.*, c.*, pg_current_snapshot()::text AS snapshot, ${settingVersionColumns}
      FROM m JOIN c ON c.id = m.vehicle_id ORDER BY m.vehicle_id`.execute(trx)
    ).rows;
    const work = marks.flatMap((mark): PassWork[] => {
      const state = states.get(mark.vehicle_id);
      if (!state) return [];
      const watermark = ms(state.watermark);
      const pendingTo = ms(mark.t)!;
      // Reports past the watermark: derive through the newest. Only older ones (a late upload):
      // the range they span, widened by the derivers to whole trips and stops.
      const to = watermark === null || pendingTo > watermark ? Infinity : pendingTo + 1;
      const from = ms(mark.f)!;
      return [
        {
          vehicleId: mark.vehicle_id,
          range: { from, to },
          taken: { from, to: pendingTo, derivedSeq: Number(state.derived_seq), snapshot: mark.snapshot },
        },
      ];
    });
    // The settings' versions and the vehicles came with the marks (two round trips less; a vehicle gone has no row).
    return this.rebuildIn(trx, work, committed, { versions: marks[0], contexts: contextsOf(marks, this.opts.timeZone) });
  }

  /**
   * Rebuilds every deriver's rows of one vehicle over [range.from, range.to) widened to row
   * boundaries (`npm run derive`, tests). Pending marks inside are left for the worker.
   */
  async rebuild(vehicleId: number, range: TimeRange): Promise<void> {
    const committed: Array<() => void> = [];
    await this.opts.db.transaction().execute(async (trx) => {
      await lockStates(trx, [vehicleId]);
      await this.rebuildIn(trx, [{ vehicleId, range }], committed);
    });
    this.announce(committed);
  }

  /** The ranges widened by a deriver's extend, each to the union with its own (null: it does not widen). */
  private async widen(trx: Kysely<DB>, d: Deriver, ranges: VehicleRange[], pass: DerivePass): Promise<VehicleRange[] | null> {
    let wider: TimeRange[];
    if (d.extendMany) wider = await d.extendMany(trx, ranges, pass);
    else if (d.extend) {
      wider = [];
      for (const r of ranges) wider.push(await d.extend(trx, r.vehicleId, r, pass));
    } else return null;
    return ranges.map((r, i) => ({ vehicleId: r.vehicleId, from: Math.min(r.from, wider[i].from), to: Math.max(r.to, wider[i].to) }));
  }

  /** widen() of the ranges given, the others left null. */
  private async widenSome(
    trx: Kysely<DB>,
    d: Deriver,
    ranges: Array<VehicleRange | null>,
    pass: DerivePass,
  ): Promise<Array<VehicleRange | null>> {
    const some = ranges.filter((r): r is VehicleRange => r !== null);
    const wider = some.length ? await this.widen(trx, d, some, pass) : null;
    if (!wider) return ranges;
    let k = 0;
    return ranges.map((r) => (r ? wider[k++] : null));
  }

  /** Adds the time since `t0` to a phase of the stats; answers now, the next phase's start. */
  private lap(phase: string, t0: number): number {
    const now = performance.now();
    this.stats.phaseMs[phase] = (this.stats.phaseMs[phase] ?? 0) + (now - t0);
    return now;
  }

  /**
   * The windows of a pass, in the order of `ranges`: a vehicle whose held window still serves gets
   * it with only the reports stored since read from the database; the others are read whole. A live
   * window is read from the local midnight it starts in when a deriver rebuilds whole days; what
   * was read (from there) is what the pass may hold.
   */
  private async readWindows(
    trx: Kysely<DB>,
    present: readonly PassWork[],
    ranges: readonly VehicleRange[],
    contexts: Map<number, VehicleContext>,
  ): Promise<{ windows: DeriveWindow[]; read: DeriveWindow[]; heldOf: Array<HeldWindow | null> }> {
    const days = this.derivers.some((d) => d.readsDays);
    const readFrom = ranges.map((r) => {
      if (!days || r.to !== Infinity || !Number.isFinite(r.from)) return r.from;
      const tz = contexts.get(r.vehicleId)!.timeZone;
      return Math.min(r.from, dayStart(localDay(r.from, tz), tz));
    });
    const heldOf = ranges.map((r, i) => {
      const w = present[i];
      if (!this.held || !w.taken) return null;
      return this.held.usable(r.vehicleId, { from: readFrom[i], to: r.to, pendingFrom: w.taken.from, derivedSeq: w.taken.derivedSeq });
    });
    const items = ranges.map((r, i) => {
      const h = heldOf[i];
      // Held: only what lies after what it holds.
      return { vehicle: contexts.get(r.vehicleId)!, range: h ? { from: h.through + 1, to: Infinity } : { from: readFrom[i], to: r.to } };
    });
    const fresh = await loadWindows(trx, items);
    for (const w of fresh) this.stats.positionsRead += w.positions.length;
    // Everything read of each vehicle, from readFrom on.
    const read = fresh.map((w, i): DeriveWindow => {
      const h = heldOf[i];
      if (!h) return w;
      const kept = heldFrom(h, readFrom[i]);
      return {
        vehicle: w.vehicle,
        from: readFrom[i],
        to: Infinity,
        before: kept.before,
        positions: w.positions.length ? [...kept.positions, ...w.positions] : kept.positions,
        obdRecords: w.obdRecords.length ? [...kept.obdRecords, ...w.obdRecords] : kept.obdRecords,
        after: null,
      };
    });
    // What the derivers get: the window from its own start, with the days when read from a midnight.
    const windows = read.map((w, i): DeriveWindow => {
      const from = ranges[i].from;
      if (w.from === from && !days) return w;
      const part =
        w.from === from
          ? w
          : {
              ...w,
              ...heldFrom(
                { from: w.from, through: -Infinity, before: w.before, positions: w.positions, obdRecords: w.obdRecords, seq: 0 },
                from,
              ),
              from,
            };
      return days && w.to === Infinity && Number.isFinite(w.from)
        ? { ...part, days: { from: w.from, positions: w.positions, obdRecords: w.obdRecords } }
        : part;
    });
    return { windows, read, heldOf };
  }

  private async rebuildIn(
    trx: Kysely<DB>,
    work: readonly PassWork[],
    committed: Array<() => void>,
    known?: { versions: SettingVersions; contexts: Map<number, VehicleContext> },
  ): Promise<ToHold[]> {
    if (!work.length) return [];
    let t = performance.now();
    const lookups = await this.settings.forPass(trx, known?.versions);
    const contexts =
      known?.contexts ??
      (await loadVehicleContexts(
        trx,
        work.map((w) => w.vehicleId),
        this.opts.timeZone,
      ));
    const alarmSettings = this.settings.alarmSettings;
    const held: HeldWrite[] = [];
    const pass: DerivePass = {
      lookups,
      afterCommit: (f) => committed.push(f),
      vehicles: contexts,
      alarmSettings,
      hold: (h) => held.push(h),
    };
    const present = work.filter((w) => contexts.has(w.vehicleId));
    if (!present.length) return [];
    let ranges: VehicleRange[] = present.map((w) => ({ vehicleId: w.vehicleId, ...w.range }));
    // Where each deriver that widens needs its windows to start and end: the widening of those before
    // it and its own, not that of those after (an alarm policy's hours of look-back are not the trips').
    const own = new Map<Deriver, TimeRange[]>();
    // The ranges before a deriver that widens for itself did (what the derivers after it widen from).
    let unwidened: VehicleRange[] | null = null;
    for (const d of this.derivers) {
      const wider = await this.widen(trx, d, ranges, pass);
      if (!wider) continue;
      if (d.widensForItself) unwidened ??= ranges;
      ranges = wider;
      own.set(
        d,
        ranges.map((r) => ({ from: r.from, to: r.to })),
      );
    }
    t = this.lap('extend', t);
    const { windows: whole, read, heldOf } = await this.readWindows(trx, present, ranges, contexts);
    const windows = whole.map((w, i): DeriveWindow => {
      const taken = present[i].taken;
      return { ...w, dirty: present[i].range, ...(taken ? { marked: taken.to } : {}), ...(heldOf[i] ? { continues: true } : {}) };
    });
    t = this.lap('read', t);
    // After a deriver that widens for itself: per window where it changed nothing the derivers after
    // it read, the range before its widening, with theirs (null: its whole widening).
    let bare: Array<VehicleRange | null> | null = null;
    for (const d of this.derivers) {
      if (bare) {
        bare = await this.widenSome(trx, d, bare, pass);
        t = this.lap('extend', t);
      }
      const itsOwn = own.get(d);
      const mine = windows.map((w, i) => {
        const b = bare?.[i];
        // The rest of the window the deriver before walked for itself holds nothing it changed.
        if (b && b.from >= w.from && b.to <= w.to) return windowWithin(w, b);
        return itsOwn ? windowWithin(w, itsOwn[i]) : w;
      });
      let changed: void | readonly number[] = undefined;
      if (d.rebuildMany) changed = await d.rebuildMany(trx, mine, pass);
      else for (const w of mine) await d.rebuild(trx, w, pass);
      if (d.widensForItself && unwidened) {
        const from = unwidened;
        const was: Array<VehicleRange | null> | null = bare;
        bare = from.map((r, i): VehicleRange | null => {
          const c = changed?.[i] ?? -Infinity;
          const b: VehicleRange | null = was ? was[i] : r;
          // Only where it changed nothing the later derivers read: a trip it changed (an open one) may
          // reach back past their own widening, and they are then handed its whole widening.
          return b && c === Infinity ? b : null;
        });
      }
      for (const w of mine) this.stats.positionsHanded[d.name] = (this.stats.positionsHanded[d.name] ?? 0) + w.positions.length;
      t = this.lap(d.name, t);
    }
    const newest = windows.map((w) => (w.positions.length ? w.positions[w.positions.length - 1].time : NaN));
    // A rebuild outside the worker takes no marks and keeps the sequence: it reads no report a held window lacks.
    const seqs = present.map((w) => (w.taken ? w.taken.derivedSeq + 1 : null));
    // A worker's pass also keeps the snapshot it took its marks in and the alarms' settings it judged
    // by; when those changed, the snapshot of the last pass before (what was judged by the old ones).
    // The derivers' held writes go with it: one round trip less for each.
    const writes = held.flatMap((h, i) => h(`h${i}_`));
    await sql`
      ${writes.length ? sql`WITH ${sql.join(writes)}` : sql``} UPDATE derive_state d SET watermark = GREATEST(d.watermark, i.watermark), derived_at = now(), derived_seq = COALESCE(i.seq, d.derived_seq),
        marks_snapshot = COALESCE(i.snapshot::pg_snapshot, d.marks_snapshot),
        judged_from = CASE WHEN i.snapshot IS NULL THEN d.judged_from ELSE ${judgedFromSql(alarmSettings)} END,
        alarm_settings = CASE WHEN i.snapshot IS NULL THEN d.alarm_settings ELSE ${alarmSettings} END
      FROM unnest(${present.map((w) => w.vehicleId)}::int[], ${newest.map((t) => boundOf(t)?.toISOString() ?? null)}::timestamptz[], ${seqs}::bigint[],
        ${present.map((w) => w.taken?.snapshot ?? null)}::text[]) AS i(vehicle_id, watermark, seq, snapshot)
      WHERE d.vehicle_id = i.vehicle_id`.execute(trx);
    this.lap('watermark', t);
    this.stats.windows += windows.length;
    for (const w of windows) this.stats.positionsDerived += w.positions.length;
    return seqs.flatMap((seq, i) => (seq === null ? [] : [{ window: read[i], through: newestOf(read[i], heldOf[i]?.through), seq }]));
  }

  /** Resolves once nothing is pending in this process (tests, the demo history, shutdown). */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  private isIdle(): boolean {
    return !this.queue.size && !this.running && !this.timer && !this.marking.size;
  }

  private wakeIdle(): void {
    if (this.isIdle()) for (const w of this.idleWaiters.splice(0)) w();
  }

  /** Finishes the pass in progress; what is still queued stays pending in the table for the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await Promise.allSettled([...this.marking]);
    await this.running;
    for (const w of this.idleWaiters.splice(0)) w();
  }
}
