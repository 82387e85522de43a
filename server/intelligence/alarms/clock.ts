/**
 * The alarm clock: the types a report cannot raise in time run on a timer instead. OfflineLongTime
 * (a silent terminal sends nothing to react to) and StopLongTime (a parked terminal often goes
 * quiet before the stop is long enough). Maintenance falling due runs on a clock of its own, the
 * same timer with its own rule (server/maintenance/maintenanceClock.ts).
 */

import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import { offlineAlarms } from './offlineClock';
import { stopAlarms } from './stopClock';
import type { RaisedAlarm } from './store';

export interface AlarmClockOptions {
  /** Epoch ms now (tests move it). */
  now?: () => number;
  /** Tick period, ms (default: the clock's own). */
  intervalMs?: number;
  onRaised?: (alarms: RaisedAlarm[]) => void;
  log?: { warn(obj: object, msg: string): void };
}

/** What a clock evaluates as of a moment: the alarms it raised. */
export type ClockRule = (at: number) => Promise<RaisedAlarm[]>;

/** A clock's name in its log and its default tick period. */
export interface ClockKind {
  name: string;
  intervalMs: number;
}

export class AlarmClock {
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<RaisedAlarm[]> | null = null;
  private readonly now: () => number;

  constructor(
    private readonly rule: ClockRule,
    private readonly kind: ClockKind,
    private readonly opts: AlarmClockOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.opts.intervalMs ?? this.kind.intervalMs);
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
    this.ticking = this.rule(at ?? this.now())
      .then((raised) => {
        if (raised.length) this.opts.onRaised?.(raised);
        return raised;
      })
      .catch((err: unknown) => {
        this.opts.log?.warn({ err }, `${this.kind.name} failed`);
        return [];
      })
      .finally(() => (this.ticking = null));
    return this.ticking;
  }
}

/** The engine's clock: OfflineLongTime and StopLongTime, every minute. */
export const engineClock = (db: Kysely<DB>, opts: AlarmClockOptions): AlarmClock =>
  new AlarmClock(
    async (now) => [...(await offlineAlarms(db, now)), ...(await stopAlarms(db, now))],
    { name: 'alarm clock', intervalMs: 60_000 },
    opts,
  );
