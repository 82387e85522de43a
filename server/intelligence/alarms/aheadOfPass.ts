/**
 * What the report-time alarm paths (bitAlarms.ts, ignitionAlarms.ts, faultAlarms.ts,
 * fenceAlarms.ts, lowAlarms.ts, durationAlarms.ts, fuelDrainAlarms.ts) share: each report's stored
 * predecessor, in the device-time order the deriver reads; storing an alarm exactly as the pass will
 * find it, so the pass keeps its id and nothing is announced twice; and a batch's vehicles with
 * their live reports and policies, grouped and looked up once for all the paths (engine.ts).
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import { ALARM_INSERT_COLUMNS, alarmKey, rowOf, rowsToInsert, type RaisedAlarm, type StoredAlarm } from './store';
import type { AlarmInterval } from './types';
import type { PolicySet } from './policies';
import type { DeriveLookups } from '../settingsCache';
import { firstAtOrAfter } from '../deriver';

/** What a predecessor tells these paths. */
export interface Predecessor {
  /** The alarm word, unsigned. */
  alarm: number;
  acc: boolean;
}

/** Per report, in order, the stored position of its vehicle just before it; null when there is none. */
export async function storedPredecessors(
  db: Kysely<DB>,
  reports: ReadonlyArray<{ vehicleId: number; time: number }>,
): Promise<Array<Predecessor | null>> {
  const r = await sql<{ ord: number; alarm: number | null; acc: boolean | null; found: boolean }>`
    SELECT c.ord, p.alarm, p.acc, p.vehicle_id IS NOT NULL AS found
    FROM unnest(${reports.map((c) => c.vehicleId)}::int[], ${reports.map((c) => new Date(c.time).toISOString())}::timestamptz[]) WITH ORDINALITY AS c(vehicle_id, t, ord)
    LEFT JOIN LATERAL (
      SELECT vehicle_id, alarm, acc FROM position WHERE vehicle_id = c.vehicle_id AND device_time < c.t ORDER BY device_time DESC, terminal_id DESC LIMIT 1
    ) p ON true`.execute(db);
  const out: Array<Predecessor | null> = reports.map(() => null);
  for (const row of r.rows)
    if (row.found) out[Number(row.ord) - 1] = { alarm: row.alarm === null ? 0 : Number(row.alarm) >>> 0, acc: row.acc === true };
  return out;
}

/** An alarm as a report-time path stores it: it fired at its begin unless `firedAt` says later (a dwell, a duration). */
export type AheadAlarm = Omit<StoredAlarm, 'id'> & { firedAt?: number };

/**
 * Stores the alarms unless the pass (or an earlier batch) stored them first, in one statement;
 * answers each with its id, or null, in the order given. Of two open alarms of one key in one call
 * the second is not stored (one open per key): it is left to the pass.
 */
export async function storeAheadOfPass(db: Kysely<DB>, alarms: readonly AheadAlarm[]): Promise<Array<StoredAlarm | null>> {
  if (!alarms.length) return [];
  const r = await sql<{ id: number; vehicle_id: number; type: string; subject: string; begin_time: Date }>`
    INSERT INTO alarm ${ALARM_INSERT_COLUMNS} ${rowsToInsert(alarms.map((a) => ({ ...a, firedAt: a.firedAt ?? a.begin })))}
    ON CONFLICT DO NOTHING
    RETURNING id, vehicle_id, type, subject, begin_time`.execute(db);
  const idOf = new Map(r.rows.map((row) => [alarmKey(row.vehicle_id, row.type, row.subject, new Date(row.begin_time).getTime()), row.id]));
  return alarms.map(({ firedAt: _firedAt, ...a }) => {
    const key = alarmKey(a.vehicleId, a.type, a.subject, a.begin);
    const id = idOf.get(key);
    // Once: a key given twice was stored once.
    if (id === undefined) return null;
    idOf.delete(key);
    return { id, ...a };
  });
}

/** A vehicle of a committed batch as the report-time paths start from it. */
export interface LiveVehicle<R> {
  vehicleId: number;
  orgPath: string;
  /** The policies in force for its organisation. */
  policies: PolicySet;
  /** Its live reports (blind-area uploads are left to the pass), in device-time order. */
  reports: R[];
}

/**
 * The batch's live reports by vehicle, each vehicle's policies looked up once for every path
 * (cached between batches: one wait for the batch). A vehicle whose organisation is unknown (gone
 * meanwhile) is left out.
 */
export async function liveVehicles<R extends { vehicleId: number; time: number; blind: boolean }>(
  reports: readonly R[],
  lookups: DeriveLookups,
  pathOf: ReadonlyMap<number, string>,
): Promise<Array<LiveVehicle<R>>> {
  const byVehicle = new Map<number, R[]>();
  for (const r of reports) {
    if (r.blind || !pathOf.has(r.vehicleId)) continue;
    const list = byVehicle.get(r.vehicleId);
    if (list) list.push(r);
    else byVehicle.set(r.vehicleId, [r]);
  }
  const vehicles = [...byVehicle];
  const policiesOf = await Promise.all(vehicles.map(([vehicleId]) => lookups.policies(pathOf.get(vehicleId)!)));
  return vehicles.map(([vehicleId, list], i) => ({
    vehicleId,
    orgPath: pathOf.get(vehicleId)!,
    policies: policiesOf[i],
    reports: list.sort((a, b) => a.time - b.time),
  }));
}

/** What a report-time path found again for one vehicle, by the deriver's own rules. */
export interface FoundAhead {
  vehicleId: number;
  orgPath: string;
  found: readonly AlarmInterval[];
  /** Only alarms that fired at this time or later are stored (default: all). */
  firedFrom?: number;
}

/**
 * Just past the stretch's last report before the batch (which begins at `batchFrom`): what fired from
 * there on is what the batch completed (FoundAhead.firedFrom). -Infinity when the stretch has none.
 */
export function firedFromBatch(positions: ReadonlyArray<{ time: number }>, batchFrom: number): number {
  const first = firstAtOrAfter(positions, batchFrom);
  return first > 0 ? positions[first - 1].time + 1 : -Infinity;
}

/**
 * Stores the alarms report-time paths found again by the deriver's own rules, as the pass will
 * find them: those that fired at `firedFrom` or later (what the batch completed; the earlier ones
 * were the pass's or an earlier batch's to raise). One found ended whose stored twin is still open
 * (the pass has not yet read where it ended) is closed there first, as the pass will close it: one
 * alarm of a key is open at a time, so the next could not be stored beside it. Two statements for
 * all the vehicles. Answers those it created, with the organisation path.
 */
export async function storeFoundAheadOfPass(db: Kysely<DB>, items: readonly FoundAhead[]): Promise<RaisedAlarm[]> {
  const fresh = items.flatMap((it) => it.found.filter((a) => a.firedAt >= (it.firedFrom ?? -Infinity)).map((a) => ({ it, a })));
  if (!fresh.length) return [];
  const ended = items.flatMap((it) => it.found.filter((a) => a.end !== null).map((a) => ({ vehicleId: it.vehicleId, a })));
  if (ended.length)
    await sql`
      UPDATE alarm a SET end_time = f.end_time
      FROM unnest(${ended.map((e) => e.vehicleId)}::int[], ${ended.map((e) => e.a.type)}::text[], ${ended.map((e) => e.a.subject)}::text[],
                  ${ended.map((e) => new Date(e.a.begin).toISOString())}::timestamptz[], ${ended.map((e) => new Date(e.a.end!).toISOString())}::timestamptz[]) AS f(vehicle_id, type, subject, begin_time, end_time)
      WHERE a.vehicle_id = f.vehicle_id AND a.type = f.type AND a.subject = f.subject AND a.begin_time = f.begin_time AND a.end_time IS NULL AND a.state = 'current'`.execute(
      db,
    );
  const stored = await storeAheadOfPass(
    db,
    fresh.map(({ it, a }) => ({ ...rowOf(it.vehicleId, a), firedAt: a.firedAt })),
  );
  return stored.flatMap((a, i) => (a ? [{ ...a, orgPath: fresh[i].it.orgPath }] : []));
}
