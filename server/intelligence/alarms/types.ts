/**
 * The alarm model: types, where each comes from (category), its default level (written once in
 * schemas/kit/alarmModel.ts, the console reads it too), and the interval a detector reports.
 * Detectors are pure: ordered samples in, condition intervals out.
 */

import { ALARM_TYPES, type AlarmLevel, type AlarmType } from '../../../schemas/kit/alarmModel';

export {
  SPEC_ALARM_TYPES,
  EXTRA_ALARM_TYPES,
  ALARM_TYPES,
  ALARM_CATEGORIES,
  ALARM_LEVELS,
  ALARM_META,
  type AlarmType,
  type AlarmCategory,
  type AlarmLevel,
} from '../../../schemas/kit/alarmModel';

/**
 * Types raised by the clock rather than by reports: the report deriver never rebuilds them. The
 * maintenance ones are instant (never open), so closing open clock alarms never touches them.
 */
export const CLOCK_TYPES: ReadonlySet<AlarmType> = new Set<AlarmType>([
  'OfflineLongTime',
  'MaintenanceDue',
  'MaintenanceOverdue',
  'FuelCardSuspect',
]);

/** Marks, in `detail.sources`, a StopLongTime the clock opened past a quiet terminal's last report (stopClock.ts). */
export const CLOCK_SOURCE = 'clock';

/** A condition a detector found, before intervals of one key are merged. */
export interface AlarmInterval {
  type: AlarmType;
  /** '' or what tells alarms of one type apart ('fence:7', 'dtc:P0301'). */
  subject: string;
  /** Epoch ms the condition began. */
  begin: number;
  /** Epoch ms it cleared; null while it holds at the end of the data. */
  end: number | null;
  /** Epoch ms it had held long enough to raise the alarm (begin for instant ones). */
  firedAt: number;
  latitude: number | null;
  longitude: number | null;
  /** Peak of the measured value, when there is one. */
  value: number | null;
  /** Overrides the type's default level (e.g. from the expert fault library). */
  level?: AlarmLevel;
  fenceId?: number | null;
  detail?: Record<string, unknown>;
}

/** The rules an alarm came from (its detail's `sources`: 'policy', 'bit:N', 'fence:ID', 'clock'). */
export const sourcesOf = (a: Pick<AlarmInterval, 'detail'>): unknown[] => (a.detail?.sources as unknown[] | undefined) ?? [];

/** Whether an alarm came from this rule among others. */
export const hasSource = (a: Pick<AlarmInterval, 'detail'>, source: string): boolean => sourcesOf(a).includes(source);

export const isAlarmType = (s: string): s is AlarmType => (ALARM_TYPES as readonly string[]).includes(s);
