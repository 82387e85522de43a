/**
 * The maintenance clock of one server process: evaluates the schedules and settles the fuel card
 * purchases (fuelCardMatch.ts) on the alarm clock's timer
 * (intelligence/alarms/clock.ts) and hands the alarms it raised to the alarm engine's announcer
 * (bus, notification rules).
 */

import type { Kysely } from 'kysely';
import type { DB } from '../platform/db/tables';
import { AlarmClock, type AlarmClockOptions } from '../intelligence/alarms/clock';
import { maintenanceAlarms } from './maintenanceAlarms';
import { settleFuelCards } from './fuelCardMatch';

export interface MaintenanceClockOptions extends AlarmClockOptions {
  timeZone: string;
}

export class MaintenanceClock extends AlarmClock {
  constructor(db: Kysely<DB>, opts: MaintenanceClockOptions) {
    // Every 10 minutes by default: a schedule moves by days and hundreds of kilometres, and a fuel
    // card purchase waits for its refuel to be derived.
    super(
      async (at) => [...(await maintenanceAlarms(db, at, opts.timeZone)), ...(await settleFuelCards(db, at))],
      { name: 'maintenance clock', intervalMs: 600_000 },
      opts,
    );
  }
}
