/**
 * The maintenance clock of one server process: evaluates the schedules on the alarm clock's timer
 * (intelligence/alarms/clock.ts) and hands the alarms it raised to the alarm engine's announcer
 * (bus, notification rules).
 */

import type { Kysely } from 'kysely';
import type { DB } from '../platform/db/tables';
import { AlarmClock, type AlarmClockOptions } from '../intelligence/alarms/clock';
import { maintenanceAlarms } from './maintenanceAlarms';

export interface MaintenanceClockOptions extends AlarmClockOptions {
  timeZone: string;
}

export class MaintenanceClock extends AlarmClock {
  constructor(db: Kysely<DB>, opts: MaintenanceClockOptions) {
    // Every 10 minutes by default: a schedule moves by days and hundreds of kilometres.
    super((at) => maintenanceAlarms(db, at, opts.timeZone), { name: 'maintenance clock', intervalMs: 600_000 }, opts);
  }
}
