/**
 * The alarm word's own alarms, raised as soon as a batch is committed instead of after the
 * derivation pass (which waits for its linger and the heavier derivers): the report → alarm time
 * the budget speaks of. Only types that nothing but alarm bits raises (with subject '') take this
 * path, so the alarm stored here is exactly the one the deriver finds later: same key (vehicle,
 * type, subject, begin), which the deriver then updates in place (`replaceAlarms` keeps its id and
 * announces nothing twice). An alarm begins at a live report carrying one of the type's bits whose
 * stored predecessor (device-time order) carries none. An earlier alarm of the key still open (the
 * pass has not yet seen the report that cleared it) is closed first, where the pass closes it: at
 * the first stored report after its begin carrying none of the bits. Blind-area uploads are left
 * to the deriver.
 *
 * Fatigue, StopLongTime, FuelDrain and Trail are found otherwise only under their policy:
 * for a vehicle with no policy of such a type, its bits alone are the alarm (as the deriver finds
 * it), so they take this path too (raisePolicyFreeBitAlarms).
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import { ALARM_BIT_TYPES, bitsOf } from './detectors/alarmWord';
import { ALARM_META, type AlarmType } from './types';
import type { RaisedAlarm, StoredAlarm } from './store';
import type { DeriveLookups } from '../settingsCache';
import { storedPredecessors, storeAheadOfPass } from './aheadOfPass';

/** Types some detector other than the alarm word also raises with subject '': never raised here. */
const ALSO_DERIVED: ReadonlySet<AlarmType> = new Set<AlarmType>([
  'OverSpeed',
  'Fatigue',
  'StopLongTime',
  'FuelDrain',
  'FireOn',
  'Trail',
  'Low',
  'PullOut',
  'Idle',
  'RepeatArrival',
  'Insert',
]);

/** Types raised from some reports' bits: per type the mask of its bits in the alarm word, and all of them. */
interface BitMasks {
  byType: ReadonlyMap<AlarmType, number>;
  all: number;
}

/** The masks of the types for which `keep` holds. */
const bitMasks = (keep: (type: AlarmType) => boolean): BitMasks => {
  const byType = new Map([...new Set(ALARM_BIT_TYPES)].filter(keep).map((type) => [type, bitsOf(type)]));
  return { byType, all: [...byType.values()].reduce((a, m) => (a | m) >>> 0, 0) };
};

/** The types raised here from every vehicle's reports. */
const FAST = bitMasks((type) => !ALSO_DERIVED.has(type));

/** Types no detector but their policy's raises besides the alarm word (deriver.ts, detectAlarms). */
export const POLICY_BIT_TYPES: ReadonlySet<AlarmType> = new Set<AlarmType>(['Fatigue', 'StopLongTime', 'FuelDrain', 'Trail']);
const POLICY_BITS = bitMasks((type) => POLICY_BIT_TYPES.has(type));

/** A committed live report, as the fast path needs it. */
export interface BitReport {
  vehicleId: number;
  /** Epoch ms. */
  time: number;
  alarm: number;
  latitude: number;
  longitude: number;
}

/** The bits of the alarm word, as the deriver's detail names them. */
const sourcesOf = (alarm: number, mask: number) => {
  const out: string[] = [];
  for (let bit = 0; bit < 32; bit++) if (((alarm & mask) >>> bit) & 1) out.push(`bit:${bit}`);
  return out.sort();
};

/** Stores the alarms these committed reports begin; answers those it created. */
export function raiseBitAlarms(db: Kysely<DB>, reports: readonly BitReport[]): Promise<StoredAlarm[]> {
  return raiseOnsets(db, reports, () => FAST);
}

/**
 * Stores the Fatigue, StopLongTime, FuelDrain and Trail alarms these committed reports
 * begin, of the types with no policy in force for their vehicle (a vehicle without an organisation
 * is left to the pass); answers those it created, with the organisation path.
 */
export async function raisePolicyFreeBitAlarms(
  db: Kysely<DB>,
  reports: readonly BitReport[],
  lookups: DeriveLookups,
  pathOf: ReadonlyMap<number, string>,
): Promise<RaisedAlarm[]> {
  const masksOf = new Map<number, BitMasks>();
  for (const r of reports) {
    const path = pathOf.get(r.vehicleId);
    if ((r.alarm & POLICY_BITS.all) === 0 || path === undefined || masksOf.has(r.vehicleId)) continue;
    const policies = await lookups.policies(path);
    masksOf.set(
      r.vehicleId,
      bitMasks((type) => POLICY_BIT_TYPES.has(type) && !policies.has(type)),
    );
  }
  if (!masksOf.size) return [];
  const created = await raiseOnsets(db, reports, (r) => masksOf.get(r.vehicleId));
  return created.map((a) => ({ ...a, orgPath: pathOf.get(a.vehicleId)! }));
}

/** Stores the alarms of the types `masksOf` gives each report that the reports begin; answers those it created. */
async function raiseOnsets(
  db: Kysely<DB>,
  reports: readonly BitReport[],
  masksOf: (r: BitReport) => BitMasks | undefined,
): Promise<StoredAlarm[]> {
  const candidates = reports.flatMap((r) => {
    const masks = masksOf(r);
    return masks && (r.alarm & masks.all) !== 0 ? [{ r, masks: masks.byType }] : [];
  });
  if (!candidates.length) return [];
  // Each candidate's stored predecessor (the batch is committed: its own reports count).
  const before = await storedPredecessors(
    db,
    candidates.map((c) => c.r),
  );
  const onsets = candidates.flatMap(({ r, masks }, i) =>
    [...masks]
      .filter(([, mask]) => (r.alarm & mask) !== 0 && ((before[i]?.alarm ?? 0) & mask) === 0)
      .map(([type, mask]) => ({ r, type, mask })),
  );
  if (!onsets.length) return [];
  // Rounds: a key's second onset in the batch must find its first stored, to close it.
  const rounds: Array<typeof onsets> = [];
  const seen = new Map<string, number>();
  for (const o of [...onsets].sort((a, b) => a.r.time - b.r.time)) {
    const key = `${o.r.vehicleId}|${o.type}`;
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    (rounds[n] ??= []).push(o);
  }
  const created: StoredAlarm[] = [];
  for (const round of rounds) {
    // Each key's earlier alarm still open is closed first, in one statement for the round.
    await sql`
      UPDATE alarm a SET end_time = c.t
      FROM (SELECT a2.id, (SELECT min(p.device_time) FROM position p
                           WHERE p.vehicle_id = a2.vehicle_id AND p.device_time > a2.begin_time AND p.device_time < k.at AND (p.alarm & k.mask) = 0) AS t
            FROM unnest(${round.map((o) => o.r.vehicleId)}::int[], ${round.map((o) => o.type)}::text[], ${round.map((o) => o.mask)}::bigint[],
                        ${round.map((o) => new Date(o.r.time).toISOString())}::timestamptz[]) AS k(vehicle_id, type, mask, at)
            JOIN alarm a2 ON a2.vehicle_id = k.vehicle_id AND a2.type = k.type AND a2.subject = '' AND a2.end_time IS NULL AND a2.state = 'current' AND a2.begin_time < k.at) c
      WHERE a.id = c.id AND c.t IS NOT NULL`.execute(db);
    const stored = await storeAheadOfPass(
      db,
      round.map(({ r, type, mask }) => {
        const meta = ALARM_META[type];
        return {
          vehicleId: r.vehicleId,
          type,
          subject: '',
          begin: r.time,
          end: null,
          level: meta.level,
          category: meta.category,
          latitude: r.latitude,
          longitude: r.longitude,
          value: null,
          fenceId: null,
          detail: { sources: sourcesOf(r.alarm >>> 0, mask) },
        };
      }),
    );
    for (const a of stored) if (a) created.push(a);
  }
  return created;
}
