/**
 * The alarm clock: the types a report cannot raise in time run on a timer instead. OfflineLongTime
 * (a silent terminal sends nothing to react to) and StopLongTime (a parked terminal often goes
 * quiet before the stop is long enough).
 */

import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import { offlineAlarms } from './offlineClock';
import { stopAlarms } from './stopClock';
import type { RaisedAlarm } from './store';

export interface AlarmClockOptions {
  /** Epoch ms now (tests move it). */
  now?: () => number;
  /** Tick period, ms (default 60 s). */
  intervalMs?: number;
  onRaised?: (alarms: RaisedAlarm[]) => void;
  log?: { warn(obj: object, msg: string): void };
}

export class AlarmClock {
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<RaisedAlarm[]> | null = null;
  private readonly now: () => number;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly opts: AlarmClockOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.opts.intervalMs ?? 60_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.ticking;
  }

  /** One evaluation (never two at once); answers the alarms it opened. */
  tick(): Promise<RaisedAlarm[]> {
    if (this.ticking) return this.ticking;
    this.ticking = this.evaluate()
      .catch((err: unknown) => {
        this.opts.log?.warn({ err }, 'alarm clock failed');
        return [];
      })
      .finally(() => (this.ticking = null));
    return this.ticking;
  }

  private async evaluate(): Promise<RaisedAlarm[]> {
    const now = this.now();
    const raised = [...(await offlineAlarms(this.db, now)), ...(await stopAlarms(this.db, now))];
    if (raised.length) this.opts.onRaised?.(raised);
    return raised;
  }
}
