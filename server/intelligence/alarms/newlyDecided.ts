import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import { firstAtOrAfter, type DeriveObdRecord, type DerivePosition, type TimeRange } from '../deriver';
import { alarmKey, rowOf, type StoredAlarm } from './store';
import type { AlarmInterval } from './types';

/** The time of the first of these (in time order) at or after `at`; Infinity when none is. */
function firstFrom(items: ReadonlyArray<{ time: number }>, at: number): number {
  return items[firstAtOrAfter(items, at)]?.time ?? Infinity;
}

/** What one window of a pass stored anew, and what it read (the alarms' deciding reports are among them). */
export interface StoredOfWindow {
  vehicleId: number;
  stored: readonly StoredAlarm[];
  found: readonly AlarmInterval[];
  read: { positions: readonly DerivePosition[]; obdRecords: readonly DeriveObdRecord[] };
  dirty: TimeRange | undefined;
}

/**
 * Of the alarms of a pass's windows, those to announce (console, webhooks, SMS), each exactly once:
 * decided by a report or OBD record no earlier pass had. The deciding report is the first at or
 * after the moment the alarm fired. One in the window's dirty range (the marks the pass took) is
 * new. One before it was there for an earlier pass to find, and an alarm stored anew all the same
 * is new only because the settings changed since (a policy added or lowered, a fence drawn, which
 * rebuilds the window's history): stored and listed, but not pushed as though it had just
 * happened, or an edited policy would replay hours of a vehicle's past as fresh alarms. Such an
 * alarm is stored unannounced (`alarm.announced`), and so is one decided by a report the pass read
 * before taking its marks (stored a moment before, or a blind-area upload under way): the pass
 * that takes the marks of a report it was decided from finds the alarm again and announces it
 * then. Without a dirty range (a rebuild asked for by hand) every one is announced. Returns the
 * announced per window, in order; two statements for the pass at most: the unannounced alarms, and
 * their flags set.
 */
export async function newlyDecided(trx: Kysely<DB>, windows: readonly StoredOfWindow[]): Promise<StoredAlarm[][]> {
  const out: StoredAlarm[][] = windows.map(() => []);
  const r = await sql<{ id: number; vehicle_id: number; type: string; subject: string; begin: number }>`
    SELECT id, vehicle_id, type, subject, (extract(epoch FROM begin_time) * 1000)::float8 AS begin FROM alarm
    WHERE vehicle_id = ANY(${windows.map((w) => w.vehicleId)}::int[]) AND NOT announced AND state = 'current'`.execute(trx);
  const waiting = new Map(r.rows.map((x) => [alarmKey(x.vehicle_id, x.type, x.subject, Math.round(Number(x.begin))), x.id]));
  const flags: Array<{ id: number; announced: boolean }> = [];
  windows.forEach(({ vehicleId, stored, found, read, dirty }, w) => {
    const anew = new Set(stored.map((a) => a.id));
    // The alarms found again that an earlier pass left unannounced, as they are now.
    const again = found.flatMap((a): StoredAlarm[] => {
      const id = waiting.get(alarmKey(vehicleId, a.type, a.subject, a.begin));
      return id === undefined || anew.has(id) ? [] : [{ id, ...rowOf(vehicleId, a) }];
    });
    if (!stored.length && !again.length) return;
    // One vehicle's alarms: keyed without it.
    const firedAt = new Map(found.map((a) => [alarmKey(0, a.type, a.subject, a.begin), a.firedAt]));
    const decidedAt = (alarm: StoredAlarm) => {
      const at = firedAt.get(alarmKey(0, alarm.type, alarm.subject, alarm.begin)) ?? alarm.begin;
      return Math.min(firstFrom(read.positions, at), firstFrom(read.obdRecords, at));
    };
    // An alarm stored anew is new from the dirty range's start on.
    for (const alarm of stored) {
      if (!dirty || decidedAt(alarm) >= dirty.from) out[w].push(alarm);
      else flags.push({ id: alarm.id, announced: false });
    }
    // One stored before, when the marks taken now hold one of the reports it was decided from: from
    // its begin to its deciding report, and the one before too for an alarm decided at its first
    // (an ignition: the report before had the ACC off). The Idle an earlier pass read whole, before
    // its first minutes' marks were taken, is announced by the pass that takes them, though its
    // deciding report came earlier; one decided before the marks taken now (a late upload's, or
    // settings changed) is not.
    for (const alarm of again) {
      if (dirty) {
        const decided = decidedAt(alarm);
        const first = firstAtOrAfter(read.positions, alarm.begin);
        const from = decided <= alarm.begin && first > 0 ? read.positions[first - 1].time : alarm.begin;
        if (!(decided >= dirty.from && from < dirty.to)) continue;
      }
      out[w].push(alarm);
      flags.push({ id: alarm.id, announced: true });
    }
  });
  if (flags.length)
    await sql`
      UPDATE alarm a SET announced = f.announced
      FROM unnest(${flags.map((f) => f.id)}::int[], ${flags.map((f) => f.announced)}::boolean[]) AS f(id, announced)
      WHERE a.id = f.id`.execute(trx);
  return out;
}
