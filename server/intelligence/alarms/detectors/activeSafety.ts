/**
 * Active safety alarms (苏标 T/JSATL12 and its provincial variants): the 0x0200 items 0x64 ADAS,
 * 0x65 DSM, 0x66 TPMS and 0x67 BSD as the gateway decoded them into a report's extras. Each alarm
 * the terminal starts (flag 1) or reports as a whole (flag 0) is an instant alarm at its report,
 * with the terminal's level (1 → medium, 2 → high), its detail and its alarm identification, which
 * ties the attachments the terminal uploads for it (telematics/attachments) to the alarm. An end
 * flag (2) and the terminal's events (road sign recognised, captures, driver change) raise nothing.
 * The subject is the identification's key, so two alarms of one type in one second stay two, and
 * a report repeating an identification raises it once.
 */

import type { DerivePosition } from '../../deriver';
import type { AlarmInterval, AlarmLevel, AlarmType } from '../types';
// The key the attachment service files an alarm's evidence under (terminal id, alarm time, sequence).
import { identificationKey, type AlarmIdentification } from '../../../telematics/jt808/messages/activeSafety';

/** ADAS alarm types (苏标 0x01–0x07; 粤标 0x12 solid-line lane change, 0x13 aisle pedestrian). */
const ADAS: Record<number, { type: AlarmType }> = {
  1: { type: 'ForwardCollision' },
  2: { type: 'LaneDeparture' },
  3: { type: 'HeadwayClose' },
  4: { type: 'PedestrianCollision' },
  5: { type: 'FrequentLaneChange' },
  6: { type: 'RoadSignExceeded' },
  7: { type: 'Obstacle' },
  0x12: { type: 'FrequentLaneChange' },
  0x13: { type: 'PedestrianCollision' },
};

/** DSM alarm types (苏标 0x01–0x05; 粤标 0x06 camera blocked, 0x0A seatbelt, 0x0C hands off, 0x0D phone use). */
const DSM: Record<number, { type: AlarmType }> = {
  1: { type: 'DriverFatigue' },
  2: { type: 'PhoneCall' },
  3: { type: 'Smoking' },
  4: { type: 'Distraction' },
  5: { type: 'DriverAbnormal' },
  6: { type: 'CameraBlocked' },
  0x0a: { type: 'SeatbeltOff' },
  0x0c: { type: 'HandsOff' },
  0x0d: { type: 'PhoneCall' },
};

/** Tyre alarm bits that are alarms (bit 0 is the timed report). */
const TYRE_ALARM_BITS = 0xfe;

const DEPARTURES: Record<number, string> = { 1: 'left', 2: 'right' };
const SIDES: Record<number, string> = { 1: 'rear', 2: 'leftRear', 3: 'rightRear' };
const ROAD_SIGNS: Record<number, string> = { 1: 'speedLimit', 2: 'heightLimit', 3: 'weightLimit', 4: 'noEntry', 5: 'noParking' };

/** What a detector reads of an item; anything else in extras is ignored. */
interface Item {
  alarmId: number;
  flag: number;
  type?: number;
  level?: number;
  identification: Pick<AlarmIdentification, 'terminalId' | 'timeBcd' | 'sequence' | 'attachments'>;
  standard?: string;
  [field: string]: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

function itemOf(v: unknown): Item | null {
  if (!isObject(v) || typeof v.alarmId !== 'number' || typeof v.flag !== 'number') return null;
  const id = v.identification;
  if (!isObject(id) || typeof id.terminalId !== 'string' || typeof id.timeBcd !== 'string' || typeof id.sequence !== 'number') return null;
  return v as Item; // checked field by field above
}

const levelOf = (level: unknown): AlarmLevel | undefined => (level === 1 ? 'medium' : level === 2 ? 'high' : undefined);

function interval(
  p: DerivePosition,
  rule: { type: AlarmType },
  subject: string,
  item: Item,
  source: string,
  detail: Record<string, unknown>,
): AlarmInterval {
  const level = levelOf(item.level);
  return {
    type: rule.type,
    subject,
    begin: p.time,
    end: p.time,
    firedAt: p.time,
    latitude: p.latitude,
    longitude: p.longitude,
    value: null,
    ...(level ? { level } : {}),
    detail: {
      sources: [source],
      safety: {
        key: identificationKey(item.identification),
        alarmId: item.alarmId,
        terminalLevel: item.level ?? null,
        attachments: item.identification.attachments,
        standard: item.standard ?? 'jsatl12',
        ...detail,
      },
    },
  };
}

/** The alarms of one report's active safety items. */
function reportAlarms(p: DerivePosition): AlarmInterval[] {
  const x = p.extras;
  if (!x) return [];
  const out: AlarmInterval[] = [];
  const adas = itemOf(x.adas);
  if (adas && adas.flag !== 2 && adas.type !== undefined && ADAS[adas.type]) {
    const t = adas.type;
    out.push(
      interval(p, ADAS[t], identificationKey(adas.identification), adas, 'safety:adas', {
        ...(t === 1 || t === 2 ? { frontSpeedKmh: adas.frontSpeed } : {}),
        ...(t === 1 || t === 2 || t === 4 ? { frontDistanceS: Number(adas.frontDistance) / 10 } : {}),
        ...(t === 2 && DEPARTURES[Number(adas.departure)] ? { departure: DEPARTURES[Number(adas.departure)] } : {}),
        ...(t === 6 && ROAD_SIGNS[Number(adas.roadSign)]
          ? { roadSign: ROAD_SIGNS[Number(adas.roadSign)], roadSignValue: adas.roadSignValue }
          : {}),
      }),
    );
  }
  const dsm = itemOf(x.dsm);
  if (dsm && dsm.flag !== 2 && dsm.type !== undefined && DSM[dsm.type]) {
    out.push(
      interval(
        p,
        DSM[dsm.type],
        identificationKey(dsm.identification),
        dsm,
        'safety:dsm',
        dsm.type === 1 ? { fatigueDegree: dsm.fatigueDegree } : {},
      ),
    );
  }
  const tpms = itemOf(x.tpms);
  if (tpms && tpms.flag !== 2 && Array.isArray(tpms.tyres)) {
    for (const tyre of tpms.tyres as unknown[]) {
      if (!isObject(tyre) || typeof tyre.position !== 'number' || typeof tyre.alarmBits !== 'number' || !(tyre.alarmBits & TYRE_ALARM_BITS))
        continue;
      out.push(
        interval(p, { type: 'TyreAlarm' }, `${identificationKey(tpms.identification)}:tyre${tyre.position}`, tpms, 'safety:tpms', {
          tyre: tyre.position,
          alarms: tyre.alarms,
          pressureKpa: tyre.pressureKpa,
          temperatureC: tyre.temperatureC,
          batteryPct: tyre.batteryPct,
        }),
      );
    }
  }
  const bsd = itemOf(x.bsd);
  if (bsd && bsd.flag !== 2 && bsd.type !== undefined && SIDES[bsd.type]) {
    out.push(interval(p, { type: 'BlindSpot' }, identificationKey(bsd.identification), bsd, 'safety:bsd', { side: SIDES[bsd.type] }));
  }
  return out;
}

/** Every active safety alarm of these reports, once per alarm identification (the first report carrying it). */
export function activeSafetyIntervals(positions: readonly DerivePosition[]): AlarmInterval[] {
  const out: AlarmInterval[] = [];
  const seen = new Set<string>();
  for (const p of positions) {
    // Most reports carry no item: one look at each key.
    const x = p.extras;
    if (!x || (x.adas === undefined && x.dsm === undefined && x.tpms === undefined && x.bsd === undefined)) continue;
    for (const a of reportAlarms(p)) {
      const k = `${a.type}\u0000${a.subject}`;
      if (seen.has(k)) continue;
      seen.add(k);
      out.push(a);
    }
  }
  return out;
}
