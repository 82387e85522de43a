/**
 * The derivation pipeline's plug-in contract. A deriver turns one vehicle's window of reports into
 * its own derived rows (trips, stops, fuel events, the ledger, alarms…). The pipeline hands every
 * registered deriver the same window, in registration order, inside one transaction: each deletes
 * the rows it owns in the window and inserts them again, so a rebuild is idempotent and the result
 * depends only on the stored reports, never on the order they arrived in.
 */

import type { Kysely } from 'kysely';
import type { DB } from '../platform/db/tables';
import type { DerivePass } from './settingsCache';
import type { DeriveWindow, TimeRange, VehicleRange } from './samples';

export * from './samples';

export interface Deriver {
  /** Unique, for logs and `npm run derive -- --only <name>`. */
  readonly name: string;
  /**
   * Rebuilds whole local days: the pipeline then reads (and holds between passes) a live window
   * from the local midnight it starts in and hands those reports as `window.days`, so the deriver
   * need not read the day again on every pass.
   */
  readonly readsDays?: boolean;
  /**
   * Optional: widen a dirty range [from, to) so it starts and ends on the boundaries of the rows
   * this deriver keeps (a trip or stop is rebuilt whole). The pipeline calls every deriver's
   * extend, in order, each on the ranges the ones before it widened, and reads the union. A
   * deriver with extend is handed the window its own widening (with theirs) spans, not what a
   * later one's adds at either end: the trips need not walk an alarm policy's hours of look-back,
   * and a trip reaching past the trips' own end is not rebuilt from a window that stops inside it.
   * Derivers without extend get the whole window. Runs inside the window's transaction.
   */
  extend?(trx: Kysely<DB>, vehicleId: number, range: TimeRange, pass?: DerivePass): Promise<TimeRange>;
  /**
   * Delete this deriver's rows of the window's vehicle in [window.from, window.to) and insert them
   * again from the window. Called inside the window's transaction, after the derivers registered
   * before it (so the ledger can read the trips rebuilt a moment ago). `pass` carries the settings
   * the pipeline holds between passes (settingsCache.ts); without it the deriver reads them itself.
   */
  rebuild(trx: Kysely<DB>, window: DeriveWindow, pass?: DerivePass): Promise<void>;
  /**
   * Optional: extend() for several vehicles at once (one statement instead of one per vehicle).
   * Answers the widened ranges in the order given.
   */
  extendMany?(trx: Kysely<DB>, ranges: ReadonlyArray<VehicleRange>, pass?: DerivePass): Promise<TimeRange[]>;
  /**
   * Optional, with extend and rebuildMany: this deriver widens for its own walk (the trips: back to
   * the trip before, for the stop its fuel is read from). Its rebuildMany then answers, per window,
   * the earliest device time of a row it changed that a later deriver reads (-Infinity: unknown),
   * and where it changed none (Infinity) a later deriver is handed only its own widening of the
   * range (pipeline.ts): a vehicle parked for days is not walked back to the trip before its stop.
   */
  readonly widensForItself?: boolean;
  /**
   * Optional: rebuild() for the windows of several vehicles in one transaction, with set-wise
   * statements. Must leave exactly the rows rebuild() would leave for each window. A deriver that
   * widensForItself answers what it changed (above).
   */
  rebuildMany?(trx: Kysely<DB>, windows: readonly DeriveWindow[], pass?: DerivePass): Promise<void | readonly number[]>;
}
