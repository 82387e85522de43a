/**
 * What the vehicle detail shows of stored reports, as people read it: alarm and status bits by
 * their names, OBD records by kind with labelled readings and units, faults by code and the expert
 * library's name, numbers rounded for people (never 59.599998474121094). The same catalogue keys as the frame decoder page
 * (`console.jt808.*`), so a bit or reading is named once.
 */
import type { Translate } from '../../../schemas/kit/i18n';
import type { FormatNumber } from '../../components/charts/numberFormat';
import type { ObdMessage } from '../../services/vehicleDetail';

/** A catalogue key's text, or null when the catalogue has none (translators answer the key back). */
const known = (t: Translate, key: string): string | null => {
  const text = t(key);
  return text === key ? null : text;
};

/** Alarm (`alarm`) or status (`status`) bit names as their labels; a name the catalogue lacks stays as sent. */
export const bitLabels = (t: Translate, group: 'alarm' | 'status', names: readonly string[]): string[] =>
  names.map((n) => known(t, `console.jt808.${group}.${n}`) ?? n);

/** OBD record subtypes (0x0900 / 0xF0) by the name the decoder gives them. */
export const SUBTYPES: Readonly<Record<number, string>> = {
  0x01: 'pids',
  0x02: 'dtcs',
  0x03: 'alarms',
  0x04: 'trip',
  0x0b: 'vin',
  0x15: 'events',
};

export const subtypeLabel = (t: Translate, subtype: number): string =>
  t(`console.vehicleDetail.messages.subtypes.${SUBTYPES[subtype] ?? 'unknown'}`, { subtype });

/** Readings in the order a mechanic reads them, each with its digits (units are in the labels). */
export const READINGS: ReadonlyArray<{ key: string; digits: number }> = [
  { key: 'rpm', digits: 0 },
  { key: 'speedKmh', digits: 1 },
  { key: 'coolantTempC', digits: 0 },
  { key: 'fuelLevel', digits: 1 },
  { key: 'odometerKm', digits: 1 },
];

/** One OBD record's content as labelled values: its readings, else its VIN, alarm items or trouble codes. */
export function obdContent(t: Translate, fmt: FormatNumber, r: Pick<ObdMessage, 'readings' | 'detail' | 'dtcCount'>): string[] {
  const out: string[] = [];
  const readings = (r.readings ?? {}) as Record<string, unknown>;
  for (const { key, digits } of READINGS) {
    const v = readings[key];
    if (typeof v === 'number') out.push(`${t(`console.jt808.fields.${key}`)} ${fmt(v, digits)}`);
  }
  const vin = readings.vin ?? r.detail?.vin;
  if (typeof vin === 'string' && vin) out.push(`${t('console.jt808.fields.vin')} ${vin}`);
  const alarms = r.detail?.alarms;
  if (Array.isArray(alarms) && alarms.length) out.push(t('console.vehicleDetail.messages.alarmItems', { n: alarms.length }));
  if (r.dtcCount > 0) out.push(t('console.vehicleDetail.messages.dtcItems', { n: r.dtcCount }));
  return out;
}

/** A fault as the condition tab names it: its code and the expert library's name when it has one. */
export function faultTitle(t: Translate, f: { type: string; detail: Record<string, unknown> | null }): string {
  const code = typeof f.detail?.code === 'string' ? f.detail.code : null;
  const name = typeof f.detail?.name === 'string' ? f.detail.name : null;
  const type = t(`alarm.types.${f.type}`);
  if (code && name) return `${code} · ${name}`;
  if (code) return `${code} · ${type}`;
  return name ?? type;
}
