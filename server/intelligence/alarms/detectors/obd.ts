/**
 * OBD: trouble codes become Fault alarms, one per code, from the first report that lists it to the
 * first trouble-code report that no longer does; each is matched to the expert fault library
 * (SPN/FMI for J1939, the P-code for OBD-II). OBD alarm records become OBD alarms.
 */

import type { DeriveObdRecord, DerivePosition } from '../../samples';
import type { AlarmInterval, AlarmType, AlarmLevel } from '../types';

/** A report that lists the trouble codes active at its time (an empty list clears them all). */
export interface DtcReport {
  time: number;
  codes: string[];
  latitude: number | null;
  longitude: number | null;
}

export type ParsedDtc = { kind: 'obd2'; code: string } | { kind: 'j1939'; spn: number; fmi: number } | { kind: 'other'; code: string };

export interface ExpertFaultMatch {
  id: number;
  name: string;
  level: AlarmLevel;
  cause: string | null;
  resolvent: string;
  maintenanceMeasures: string | null;
}

const J1939 = [/^\s*SPN\D*(\d+)\D+FMI\D*(\d+)\s*$/i, /^\s*(\d+)\s*[-/:]\s*(\d+)\s*$/];

export function parseDtc(code: string): ParsedDtc {
  const c = code.trim().toUpperCase();
  if (/^[PCBU][0-9A-F]{4}$/.test(c)) return { kind: 'obd2', code: c };
  for (const re of J1939) {
    const m = re.exec(c);
    if (m) {
      const spn = Number(m[1]);
      const fmi = Number(m[2]);
      if (spn <= 524287 && fmi <= 31) return { kind: 'j1939', spn, fmi };
    }
  }
  return { kind: 'other', code: c };
}

/** The key a parsed code is looked up by in the expert library. */
export const expertKey = (d: ParsedDtc) => (d.kind === 'j1939' ? `${d.spn}/${d.fmi}` : d.code);

/** Codes a position's OBD block listed, or null when it listed none (no trouble-code report). */
export function positionDtcs(p: Pick<DerivePosition, 'extras'>): string[] | null {
  const x = p.extras as { obd?: { dtcs?: unknown }; obdF3?: { dtcs?: unknown } } | null;
  const list = x?.obd?.dtcs ?? x?.obdF3?.dtcs;
  return Array.isArray(list) ? list.filter((c): c is string => typeof c === 'string' && c.trim().length > 0) : null;
}

/** `carried`: Fault alarms open before these reports (carry.ts), whose codes are taken as listed until a report no longer lists them. */
export function faultIntervals(
  reports: readonly DtcReport[],
  expert: (d: ParsedDtc) => ExpertFaultMatch | null,
  carried: readonly AlarmInterval[] = [],
): AlarmInterval[] {
  const sorted = [...reports].sort((a, b) => a.time - b.time);
  const open = new Map<string, AlarmInterval>();
  for (const a of carried) if (a.type === 'Fault' && a.subject.startsWith('dtc:')) open.set(a.subject.slice(4), { ...a, end: null });
  const out: AlarmInterval[] = [];
  for (const r of sorted) {
    const now = new Set(r.codes.map((c) => c.trim().toUpperCase()));
    for (const [code, a] of open) {
      if (now.has(code)) continue;
      a.end = r.time;
      out.push(a);
      open.delete(code);
    }
    for (const code of now) {
      if (open.has(code)) continue;
      const parsed = parseDtc(code);
      const fault = expert(parsed);
      open.set(code, {
        type: 'Fault',
        subject: `dtc:${code}`,
        begin: r.time,
        end: null,
        firedAt: r.time,
        latitude: r.latitude,
        longitude: r.longitude,
        value: null,
        ...(fault ? { level: fault.level } : {}),
        detail: {
          code,
          ...(parsed.kind === 'j1939' ? { spn: parsed.spn, fmi: parsed.fmi } : {}),
          ...(fault
            ? {
                expertFaultId: fault.id,
                name: fault.name,
                cause: fault.cause,
                resolvent: fault.resolvent,
                maintenanceMeasures: fault.maintenanceMeasures,
              }
            : {}),
        },
      });
    }
  }
  return [...out, ...open.values()];
}

/** OBD record subtype of alarm events. */
export const OBD_ALARM_SUBTYPE = 3;

/**
 * Each item of an OBD alarm record is an instant alarm. What an item id means is the vendor's and
 * no reference names it (not even plug, unplug or crash), so it is an ObdAlarm kept as sent, unless
 * the operator maps the id to a type (`OBD_ALARM_TYPES`, e.g. their dongle's unplug event to PullOut).
 */
export function obdAlarmIntervals(records: readonly DeriveObdRecord[], types: ReadonlyMap<number, AlarmType> = new Map()): AlarmInterval[] {
  const out: AlarmInterval[] = [];
  for (const r of records) {
    if (r.subtype !== OBD_ALARM_SUBTYPE) continue;
    const items = (r.detail?.alarms as Array<{ id: number; hex: string }> | undefined) ?? [];
    for (const item of items)
      out.push({
        type: types.get(item.id) ?? 'ObdAlarm',
        subject: `obd:${item.id}`,
        begin: r.time,
        end: r.time,
        firedAt: r.time,
        latitude: r.latitude,
        longitude: r.longitude,
        value: null,
        detail: { alarmId: item.id, hex: item.hex },
      });
  }
  return out;
}
