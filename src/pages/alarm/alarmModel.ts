/** The alarm centre's pure parts: which types each page lists, the colour of a level, the unit of a value. */

import type { FormatNumber } from '../../components/charts/numberFormat';
import type { AlarmCategory, AlarmRow } from '../../services/alarms';

/** The types a page's type filter offers (the server's alarm model, by category). */
export const TYPES_BY_CATEGORY: Record<AlarmCategory, readonly string[]> = {
  ai: ['Fatigue', 'FuelDrain', 'RepeatArrival', 'Skewing'],
  fence: ['FenceIn', 'FenceOut', 'AreaInOut', 'RouteInOut'],
  obd: ['Fault', 'ObdAlarm', 'MaintenanceDue', 'MaintenanceOverdue'],
  terminal: [
    'FireOn',
    'Low',
    'Crash',
    'Trail',
    'PullOut',
    'Insert',
    'Idle',
    'OfflineLongTime',
    'StopLongTime',
    'OverSpeed',
    'Sos',
    'DangerWarning',
    'GnssFault',
    'GnssAntenna',
    'DeviceFault',
    'OverSpeedWarning',
    'IllegalDriving',
    'TyrePressure',
    'BlindZone',
    'RouteTime',
    'VssFault',
    'Stolen',
    'IllegalDoorOpen',
  ],
};

export const typesOf = (category: AlarmCategory | null): readonly string[] =>
  category ? TYPES_BY_CATEGORY[category] : (Object.values(TYPES_BY_CATEGORY) as string[][]).flat();

export const LEVEL_COLOURS: Record<string, string> = { low: 'blue', medium: 'gold', high: 'orange', critical: 'red' };

/** The unit of an alarm's value (its peak, or how long or far the condition ran) by type; a type without one carries no value. */
export const VALUE_UNITS: Record<string, { unit: 'kmh' | 'v' | 'l' | 'min' | 'h' | 'm' | 'times'; digits: number }> = {
  OverSpeed: { unit: 'kmh', digits: 0 },
  OverSpeedWarning: { unit: 'kmh', digits: 0 },
  Low: { unit: 'v', digits: 2 },
  FuelDrain: { unit: 'l', digits: 1 },
  Idle: { unit: 'min', digits: 0 },
  StopLongTime: { unit: 'min', digits: 0 },
  Fatigue: { unit: 'min', digits: 0 },
  OfflineLongTime: { unit: 'h', digits: 1 },
  Trail: { unit: 'm', digits: 0 },
  Skewing: { unit: 'm', digits: 0 },
  RepeatArrival: { unit: 'times', digits: 0 },
};

/** An alarm's value as people read it: rounded, with its unit ("249 km/h"); empty without a value. */
export function alarmValueText(a: Pick<AlarmRow, 'type' | 'value'>, fmt: FormatNumber, t: (key: string) => string): string {
  if (a.value === null) return '';
  const u = VALUE_UNITS[a.type];
  return u ? `${fmt(a.value, u.digits)} ${t(`console.alarm.units.${u.unit}`)}` : fmt(a.value, 2);
}
