/**
 * The maintenance clock of one server process: evaluates the schedules on a timer and hands the
 * alarms it raised to the alarm engine's announcer (bus, notification rules), as the alarm clock
 * does for its types (alarms/clock.ts).
 */

import type { Kysely } from 'kysely';
import type { DB } from '../platform/db/tables';
import type { RaisedAlarm } from '../intelligence/alarms/store';
import { maintenanceAlarms } from './maintenanceAlarms';

export interface MaintenanceClockOptions {
  timeZone: string;
  /** Epoch ms now (tests move it). */
  now?: () => number;
  /** Tick period, ms (default 10 minutes: a schedule moves by days and hundreds of kilometres). */
  intervalMs?: number;
  onRaised?: (alarms: RaisedAlarm[]) => void;
  log?: { warn(obj: object, msg: string): void };
}

export class MaintenanceClock {
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<RaisedAlarm[]> | null = null;
  private readonly now: () => number;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly opts: MaintenanceClockOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.opts.intervalMs ?? 600_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.ticking;
  }

  /** One evaluation (never two at once) as of `at` (default now); answers the alarms it raised. */
  tick(at?: number): Promise<RaisedAlarm[]> {
    if (this.ticking) return this.ticking;
    this.ticking = maintenanceAlarms(this.db, at ?? this.now(), this.opts.timeZone)
      .then((raised) => {
        if (raised.length) this.opts.onRaised?.(raised);
        return raised;
      })
      .catch((err: unknown) => {
        this.opts.log?.warn({ err }, 'maintenance clock failed');
        return [];
      })
      .finally(() => (this.ticking = null));
    return this.ticking;
  }
}
