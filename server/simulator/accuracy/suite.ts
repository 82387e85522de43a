/**
 * One run of the accuracy suite on a migrated, demo-seeded database: the labelled days of the demo
 * fleet's fuelled vehicles sent through the rig (rig.ts: gateway, writers, derivation), then every
 * day's derived rows held against its truth (score.ts).
 */

import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import { labelledDays, type NoiseProfile } from './labelledDays';
import { startAccuracyRig } from './rig';
import { scoreVehicle, type DayVerdict } from './score';

/** Demo terminal numbers (the demo fixtures seed 24): 8080 and eight digits. */
export const demoTerminal = (n: number) => `8080${String(n).padStart(8, '0')}`;

/** The demo terminals whose vehicles burn fuel (every fourth vehicle of the demo runs on electricity). */
export const FUELLED_TERMINALS = Array.from({ length: 24 }, (_, i) => i + 1).filter((n) => n % 4 !== 0);

export interface SuiteOptions {
  vehicles: number;
  days: number;
  /** Local day the first vehicle-day is (Asia/Shanghai). */
  firstDay?: string;
  profiles?: readonly NoiseProfile[];
  /** Told after each vehicle is sent. */
  each?: (done: number, total: number) => void;
}

export async function runAccuracySuite(db: Kysely<DB>, opts: SuiteOptions): Promise<DayVerdict[]> {
  if (opts.vehicles > FUELLED_TERMINALS.length) throw new Error(`at most ${FUELLED_TERMINALS.length} vehicles`);
  const days = labelledDays({ vehicles: opts.vehicles, days: opts.days, firstDay: opts.firstDay ?? '2026-11-02', profiles: opts.profiles });
  const rig = await startAccuracyRig(db);
  try {
    for (const [v, vehicleDays] of days.entries()) {
      await rig.send(
        demoTerminal(FUELLED_TERMINALS[v]),
        vehicleDays.flatMap((d) => d.reports),
      );
      opts.each?.(v + 1, days.length);
    }
    await rig.derived();
    const verdicts: DayVerdict[] = [];
    for (const [v, vehicleDays] of days.entries())
      verdicts.push(...(await scoreVehicle(db, await rig.vehicleOf(demoTerminal(FUELLED_TERMINALS[v])), vehicleDays)));
    return verdicts;
  } finally {
    await rig.close();
  }
}
