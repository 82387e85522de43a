/**
 * A rebuild of every deriver of the engine (engine.ts) over a range, vehicle after vehicle, each in
 * its own transaction: `npm run derive`, and a policy's re-derivation the admin asks for
 * (server/alarmCentre/rederiveRoute.ts). It announces no alarm, and keeps every handled one (alarms/store.ts).
 * Safe beside the running derivation: a vehicle's rebuild locks it as a pass does.
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../platform/db/tables';
import type { AlarmType } from './alarms/types';
import { engineDerivers } from './engine';
import { DerivationPipeline } from './pipeline';

export interface RebuildArgs {
  vehicle: number | 'all' | readonly number[];
  from: number;
  to: number;
}

export interface RebuildOptions {
  obdAlarmTypes?: ReadonlyMap<number, AlarmType>;
  /** Told before each vehicle (how many are done, of how many); may throw to stop there. */
  each?: (done: number, total: number) => void;
}

export async function rebuildDerived(
  db: Kysely<DB>,
  timeZone: string,
  args: RebuildArgs,
  opts: RebuildOptions = {},
): Promise<{ vehicles: number; positions: number }> {
  const pipeline = new DerivationPipeline({ db, timeZone, derivers: engineDerivers({ alarms: { obdAlarmTypes: opts.obdAlarmTypes } }) });
  const ids =
    args.vehicle === 'all'
      ? (await sql<{ id: number }>`SELECT id FROM vehicle ORDER BY id`.execute(db)).rows.map((r) => r.id)
      : typeof args.vehicle === 'number'
        ? [args.vehicle]
        : args.vehicle;
  for (const [i, id] of ids.entries()) {
    opts.each?.(i, ids.length);
    await pipeline.rebuild(id, { from: args.from, to: args.to });
  }
  opts.each?.(ids.length, ids.length);
  return { vehicles: ids.length, positions: pipeline.stats.positionsDerived };
}
