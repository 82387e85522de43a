/**
 * The one definition of a **current** alarm and of an **alarming** vehicle, used by the alarm
 * centre's 当前 lists (criteria.current), the dashboard's 告警中 (index/vehicleCount), the live
 * map's 报警 status and filter (monitor/query) and the vehicle detail's state:
 *
 * - an alarm is current while derivation still finds it (state `current`, neither withdrawn nor
 *   superseded) and it is open (no end), or it ended less than UNHANDLED_CURRENT_HOURS ago and
 *   nobody has handled it yet;
 * - a vehicle is alarming while it has at least one current alarm, of any category.
 *
 * The terminal's alarm word is not read here: its bits become alarms through derivation
 * (bitAlarms.ts), so an alarm word and an alarm row can never disagree about a vehicle.
 */

import { sql, type RawBuilder } from 'kysely';
import { UNHANDLED_CURRENT_HOURS } from '../../schemas/kit/alarmCurrent';

/** How long an ended alarm nobody handled stays current: after that it is history only. */
export { UNHANDLED_CURRENT_HOURS };

const recent = sql.raw(`now() - interval '${UNHANDLED_CURRENT_HOURS} hours'`);

/** Still found by derivation and open (the `alarm_one_open` index covers it). */
const openArm = (a: string) => sql`${sql.ref(`${a}.state`)} = 'current' AND ${sql.ref(`${a}.end_time`)} IS NULL`;
/** Still found by derivation, ended recently and not handled (the `alarm_unhandled_end_idx` index covers it). */
const recentArm = (a: string) =>
  sql`${sql.ref(`${a}.state`)} = 'current' AND NOT ${sql.ref(`${a}.handled`)} AND ${sql.ref(`${a}.end_time`)} >= ${recent}`;

/** The alarm of alias `a` is current. */
export function currentAlarm(a = 'a'): RawBuilder<boolean> {
  return sql<boolean>`((${openArm(a)}) OR (${recentArm(a)}))`;
}

/** The vehicle of the column `vehicleId` (e.g. 'v.id') has a current alarm. */
export function alarmingVehicle(vehicleId: string): RawBuilder<boolean> {
  return sql<boolean>`EXISTS (SELECT 1 FROM alarm ca WHERE ca.vehicle_id = ${sql.ref(vehicleId)} AND ${currentAlarm('ca')})`;
}

/** Every alarming vehicle's id, as a subquery yielding one JSON array (one index scan per arm). */
export function alarmingVehicleIdsJson(): RawBuilder<unknown> {
  return sql`(SELECT COALESCE(json_agg(ids.vehicle_id), '[]'::json) FROM (
      SELECT ca.vehicle_id FROM alarm ca WHERE ${openArm('ca')}
      UNION SELECT ca.vehicle_id FROM alarm ca WHERE ${recentArm('ca')}) ids)`;
}
