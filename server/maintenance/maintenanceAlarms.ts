/**
 * Maintenance alarms run on the clock (a schedule falls due with the calendar and the odometer,
 * not with any one report): each tick evaluates every schedule × vehicle, and the first tick that
 * finds one due (inside its warning window) or overdue stores a MaintenanceDue or
 * MaintenanceOverdue alarm, once per service cycle (subject `schedule:<id>:<last work order id or
 * 0>`; the partial unique index of the migration keeps it once). Closing a work order starts the
 * next cycle. The alarms are instant (end = begin = the tick): the schedule's state, not the
 * alarm, says whether it is still due.
 */

import type { Kysely } from 'kysely';
import type { DB } from '../platform/db/tables';
import { localDay } from '../intelligence/localDay';
import type { RaisedAlarm } from '../intelligence/alarms/store';
import type { AlarmType } from '../intelligence/alarms/types';
import { raiseOnce } from './clockAlarm';
import { scheduleUsage, type ScheduleUsage } from './scheduleUsage';

export const MAINTENANCE_ALARM_TYPES = ['MaintenanceDue', 'MaintenanceOverdue'] as const satisfies readonly AlarmType[];

/** The alarm subject of a schedule's service cycle for one vehicle. */
export const cycleSubject = (u: Pick<ScheduleUsage, 'scheduleId' | 'lastWorkOrderId'>) =>
  `schedule:${u.scheduleId}:${u.lastWorkOrderId ?? 0}`;

/** The value an alarm carries: what is left (negative: past) of the trigger that decided. */
function remainingOf(u: ScheduleUsage): number | null {
  const s = u.status;
  return s.trigger === 'km' ? s.remainingKm : s.trigger === 'hours' ? s.remainingHours : s.trigger === 'days' ? s.remainingDays : null;
}

export async function maintenanceAlarms(db: Kysely<DB>, now: number, timeZone: string): Promise<RaisedAlarm[]> {
  const due = (await scheduleUsage(db, localDay(now, timeZone), timeZone)).filter((u) => u.status.state !== 'ok');
  const raised: RaisedAlarm[] = [];
  for (const u of due) {
    const detail = {
      scheduleId: u.scheduleId,
      scheduleName: u.scheduleName,
      trigger: u.status.trigger,
      remainingKm: u.status.remainingKm,
      remainingHours: u.status.remainingHours,
      remainingDays: u.status.remainingDays,
      baseDay: u.baseDay,
      dueDay: u.dueDay,
    };
    const alarm = await raiseOnce(
      db,
      {
        vehicleId: u.vehicleId,
        orgPath: u.orgPath,
        type: u.status.state === 'overdue' ? 'MaintenanceOverdue' : 'MaintenanceDue',
        subject: cycleSubject(u),
        at: now,
        firedAt: now,
        value: remainingOf(u),
        detail,
      },
      MAINTENANCE_ALARM_TYPES,
    );
    if (alarm) raised.push(alarm);
  }
  return raised;
}
