/**
 * The behaviour deriver: per vehicle and local day, the driving events (behaviour_day) and the
 * health index (health_day). It runs after trips, the ledger and the alarm engine in the same
 * transaction, and for every day the window touches it rebuilds the whole day from what is stored
 * (the day's positions and OBD records, its trips, its alarms), so its rows depend only on the
 * stored reports, never on the order they arrived in, and rebuilding again changes nothing. A live
 * window hands it the day's reports (`readsDays`: the pipeline reads and holds them from the
 * midnight), so a pass does not read the day from the table again.
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import type { DerivePosition, Deriver, DeriveWindow } from '../deriver';
import { dayStart, localDay, nextDay } from '../localDay';
import { loadObdRecords, loadPositions } from '../windowLoad';
import { RULE_DEFAULTS, voltageOf } from '../alarms/detectors/policyRules';
import { policiesFor } from '../alarms/policies';
import { fencesFor } from '../alarms/deriver';
import { speedLimits } from '../alarms/detectors/fences';
import { dayEvents } from './events';
import { healthIndex, type HealthFault } from './health';
import { safetySettingsFor } from './settings';

/** The report just after the day still closes the day's last interval. */
const TAIL_MS = 60_000;
/** Alarms that say nothing about the vehicle's condition. */
const NOT_HEALTH = ['Fault', 'FireOn', 'Insert'];

function coolantOf(p: DerivePosition): number | null {
  const x = p.extras as { obd?: { coolantTempC?: number }; obdF3?: { coolantTempC?: number }; obdRt?: { coolant?: number; coolantTempC?: number } } | null;
  const v = x?.obd?.coolantTempC ?? x?.obdF3?.coolantTempC ?? x?.obdRt?.coolantTempC ?? x?.obdRt?.coolant;
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

const maxOf = (xs: number[]) => (xs.length ? Math.max(...xs) : null);
const minOf = (xs: number[]) => (xs.length ? Math.min(...xs) : null);

async function rebuildDay(trx: Kysely<DB>, w: DeriveWindow, day: string, speedLimit: number, thresholds: Parameters<typeof dayEvents>[6]): Promise<void> {
  const tz = w.vehicle.timeZone;
  const v = w.vehicle.vehicleId;
  const lo = dayStart(day, tz);
  const hi = dayStart(nextDay(day), tz);
  // The day as the pass read it when it read from its midnight (a live window), else from the table.
  const held = w.days && w.days.from <= lo ? w.days : null;
  const positions = held ? held.positions.filter((p) => p.time >= lo && p.time < hi + TAIL_MS) : await loadPositions(trx, v, { from: lo, to: hi + TAIL_MS });
  const trips = (
    await sql<{ b: number; e: number }>`
      SELECT (extract(epoch FROM begin_time) * 1000)::float8 AS b, (extract(epoch FROM end_time) * 1000)::float8 AS e
      FROM trip WHERE vehicle_id = ${v} AND begin_time < ${new Date(hi)} AND end_time >= ${new Date(lo)} ORDER BY begin_time`.execute(trx)
  ).rows.map((t) => ({ begin: Number(t.b), end: Number(t.e) }));
  // Inside a fence with a speed limit, that limit counts (as it does for the OverSpeed alarm).
  const limits = speedLimits(positions, await fencesFor(trx, v, w.vehicle.orgPath), speedLimit);
  const limitOf = new Map(positions.map((p, i) => [p, limits[i]]));
  const events = dayEvents(positions, trips, lo, hi, (p) => limitOf.get(p) ?? speedLimit, tz, thresholds);
  const alarms = (
    await sql<{ type: string; subject: string; level: string; begins_today: boolean; fired_today: boolean; detail: unknown }>`
      SELECT type, subject, level, detail, begin_time >= ${new Date(lo)} AS begins_today, fired_at >= ${new Date(lo)} AND fired_at < ${new Date(hi)} AS fired_today
      FROM alarm WHERE vehicle_id = ${v} AND begin_time < ${new Date(hi)} AND (end_time IS NULL OR end_time >= ${new Date(lo)})
      ORDER BY begin_time, type, subject`.execute(trx)
  ).rows;
  const fatigue = alarms.filter((a) => a.type === 'Fatigue' && a.fired_today).length;
  const faults: HealthFault[] = alarms
    .filter((a) => a.type === 'Fault')
    .map((a) => {
      const d = (typeof a.detail === 'string' ? JSON.parse(a.detail) : a.detail) as { code?: string; name?: string; resolvent?: string } | null;
      return { code: d?.code ?? a.subject.replace(/^dtc:/, ''), level: a.level, name: d?.name ?? null, resolvent: d?.resolvent ?? null };
    });
  const alarmCount = alarms.filter((a) => a.begins_today && !NOT_HEALTH.includes(a.type)).length;
  const today = positions.filter((p) => p.time < hi);
  const records = held ? held.obdRecords.filter((r) => r.time >= lo && r.time < hi) : await loadObdRecords(trx, v, { from: lo, to: hi });
  const minBatteryV = minOf(today.filter((p) => !p.acc).map(voltageOf).filter((x): x is number => x !== null));
  const maxCoolantC = maxOf([
    ...today.map(coolantOf).filter((x): x is number => x !== null),
    ...records.map((r) => r.readings?.coolantTempC).filter((x): x is number => typeof x === 'number' && Number.isFinite(x)),
  ]);
  const health = healthIndex({ faults, minBatteryV, maxCoolantC, alarmCount });

  await trx.deleteFrom('behaviour_day').where('vehicle_id', '=', v).where('day', '=', day).execute();
  await trx.deleteFrom('health_day').where('vehicle_id', '=', v).where('day', '=', day).execute();
  if (!today.length && !trips.length) return;
  await trx
    .insertInto('behaviour_day')
    .values({
      vehicle_id: v,
      day,
      org_id: w.vehicle.orgId,
      harsh_acceleration: events.harshAcceleration,
      harsh_braking: events.harshBraking,
      sharp_turn: events.sharpTurn,
      speeding_s: events.speedingS,
      fatigue,
      night_s: events.nightS,
      sources: events.sources,
    })
    .execute();
  await trx
    .insertInto('health_day')
    .values({
      vehicle_id: v,
      day,
      org_id: w.vehicle.orgId,
      health_index: health.index,
      band: health.band,
      faults: JSON.stringify(faults),
      min_battery_v: minBatteryV,
      max_coolant_c: maxCoolantC,
      alarm_count: alarmCount,
    })
    .execute();
}

export const behaviourDeriver: Deriver = {
  name: 'behaviour',
  readsDays: true,

  async rebuild(trx, w) {
    const tz = w.vehicle.timeZone;
    const days = new Set(w.positions.map((p) => localDay(p.time, tz)));
    if (!days.size) return;
    const { thresholds } = await safetySettingsFor(trx, w.vehicle.orgPath);
    const speedLimit = (await policiesFor(trx, w.vehicle.orgPath)).get('OverSpeed')?.threshold ?? RULE_DEFAULTS.overSpeedKmh;
    for (const day of [...days].sort()) await rebuildDay(trx, w, day, speedLimit, thresholds);
  },
};
