/** The alarm centre's pure parts: which types each page lists, the colour of a level, the unit of a value. */

import type { FormatNumber } from '../../components/charts/numberFormat';
import { ALARM_META, ALARM_TYPES, type AlarmType } from '../../../schemas/kit/alarmModel';
import type { AlarmCategory, AlarmRow } from '../../services/alarms';

/** A category's types, in the model's order. */
const ofCategory = (category: AlarmCategory): readonly AlarmType[] => ALARM_TYPES.filter((ty) => ALARM_META[ty].category === category);

/** The types a page's type filter offers: the server's alarm model (schemas/kit/alarmModel.ts), by category. */
export const TYPES_BY_CATEGORY: Record<AlarmCategory, readonly AlarmType[]> = {
  ai: ofCategory('ai'),
  fence: ofCategory('fence'),
  obd: ofCategory('obd'),
  safety: ofCategory('safety'),
  terminal: ofCategory('terminal'),
};

export const typesOf = (category: AlarmCategory | null): readonly string[] =>
  category ? TYPES_BY_CATEGORY[category] : Object.values(TYPES_BY_CATEGORY).flat();

export const LEVEL_COLOURS: Record<string, string> = { low: 'blue', medium: 'gold', high: 'orange', critical: 'red' };

/** The unit of an alarm's value (its peak, or how long or far the condition ran) by type; a type without one carries no value. */
interface ValueUnit {
  unit: 'kmh' | 'v' | 'l' | 'min' | 'h' | 'm' | 'times';
  digits: number;
}
export const VALUE_UNITS: Record<string, ValueUnit> = {
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

/** A number rounded for people, with its unit when it has one. */
const measured = (value: number, u: ValueUnit | undefined, fmt: FormatNumber, t: (key: string) => string): string =>
  u ? `${fmt(value, u.digits)} ${t(`console.alarm.units.${u.unit}`)}` : fmt(value, 2);

/** An alarm's value as people read it: rounded, with its unit ("249 km/h"); empty without a value. */
export function alarmValueText(a: Pick<AlarmRow, 'type' | 'value'>, fmt: FormatNumber, t: (key: string) => string): string {
  return a.value === null ? '' : measured(a.value, VALUE_UNITS[a.type], fmt, t);
}

/** The types whose policy threshold is measured as their alarm's value is: a speed, a voltage (schemas/kit/policyParams.ts). */
const THRESHOLD_TYPES: ReadonlySet<string> = new Set(['OverSpeed', 'OverSpeedWarning', 'Low']);

/** A policy's threshold as people read it: "70 km/h" for an overspeed policy. */
export const policyThresholdText = (type: string, threshold: number, fmt: FormatNumber, t: (key: string) => string): string =>
  measured(threshold, THRESHOLD_TYPES.has(type) ? VALUE_UNITS[type] : undefined, fmt, t);

/**
 * Whether an alarm's row opens on its evidence: active safety alarms (their attachments) and the
 * terminal's own alarms (the photos it takes on an emergency or a collision); the server says
 * which files belong to which alarm (server/telematics/media/alarmMedia.ts).
 */
export const mayHaveEvidence = (category: AlarmCategory): boolean => category === 'safety' || category === 'terminal';
