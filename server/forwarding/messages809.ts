/**
 * The product's positions, alarms and vehicles as JT/T 809 bodies: a stored position as 0x1200 /
 * 0x1202 (2019: the terminal's 0x0200 body rebuilt from the stored fields; 2011: the 36-byte
 * GNSS_DATA in Beijing time), an alarm as 0x1400 / 0x1402, a vehicle as 0x1601's CAR_INFO.
 */

import { encodeLocation } from '../telematics/jt808/messages/location';
import type { PositionRecord } from '../platform/telemetry';
import {
  SUB,
  encodeGnss2011,
  encodeGnss2019,
  encodeVehicleEnvelope,
  encodeWarnEnvelope,
  encodeWarnInfo,
  noPlatforms,
  type CarInfo,
  type Jt809Edition,
  type Vehicle,
} from './jt809';

/** JT/T 808 times and 809's 2011 GNSS time are Beijing time. */
const BEIJING_MINUTES = 480;

/** Plate colours as JT/T 697.7 codes them (yellow-green has no code of its own there: 9, other). */
const PLATE_COLOUR: Readonly<Record<string, number>> = { blue: 1, yellow: 2, black: 3, white: 4, green: 5 };
export const plateColourCode = (colour: string | null): number => PLATE_COLOUR[colour ?? 'blue'] ?? 9;

/** The product's alarm types as 809 WARN_TYPE codes; a type without a code of its own is 0x00ff, other. */
const WARN_TYPE: Readonly<Record<string, number>> = {
  OverSpeed: 0x0001,
  Fatigue: 0x0002,
  Sos: 0x0003,
  FenceIn: 0x0004,
  FenceOut: 0x0005,
  Stolen: 0x0009,
  Skewing: 0x000b,
  RouteInOut: 0x000b,
};
export const warnTypeCode = (type: string): number => WARN_TYPE[type] ?? 0x00ff;

/** 0x1200 carrying a 0x1202 real-time position. */
export function positionBody(v: Vehicle, p: PositionRecord, edition: Jt809Edition): Buffer {
  const data =
    edition === 2019
      ? encodeGnss2019({
          encrypt: 0,
          gnssData: encodeLocation(
            {
              alarm: p.alarm,
              status: p.status,
              latitude: p.latitude,
              longitude: p.longitude,
              altitude: p.altitude,
              speed: p.speed,
              direction: p.direction,
              time: p.deviceTime,
            },
            { tzOffsetMinutes: BEIJING_MINUTES },
          ),
          platforms: noPlatforms(),
        })
      : encodeGnss2011(gnss2011(p));
  return encodeVehicleEnvelope({ ...v, dataType: SUB.UP_EXG_MSG_REAL_LOCATION, data });
}

function gnss2011(p: PositionRecord) {
  const t = new Date(p.deviceTime + BEIJING_MINUTES * 60_000);
  return {
    encrypt: 0,
    day: t.getUTCDate(),
    month: t.getUTCMonth() + 1,
    year: t.getUTCFullYear(),
    hour: t.getUTCHours(),
    minute: t.getUTCMinutes(),
    second: t.getUTCSeconds(),
    longitude: p.longitude,
    latitude: p.latitude,
    speed: Math.min(p.speed, 0xffff),
    recorderSpeed: 0,
    mileageKm: Math.max(0, Math.floor(p.mileageKm ?? 0)),
    direction: p.direction,
    altitude: p.altitude,
    state: p.status,
    alarm: p.alarm,
  };
}

export interface AlarmForWarn extends Vehicle {
  type: string;
  begin: Date;
  end: Date | null;
  info: string;
}

/** 0x1400 carrying a 0x1402 alarm, from this platform (its access code as the source). */
export function alarmBody(a: AlarmForWarn, accessCode: number): Buffer {
  const seconds = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : 0);
  const data = encodeWarnInfo({
    sourcePlatformId: String(accessCode).slice(0, 11),
    warnType: warnTypeCode(a.type),
    warnTime: seconds(a.begin),
    startTime: seconds(a.begin),
    endTime: seconds(a.end),
    vehicleNo: a.vehicleNo,
    vehicleColor: a.vehicleColor,
    destinationPlatformId: '',
    drvLineId: 0,
    info: a.info,
  });
  return encodeWarnEnvelope({ dataType: SUB.UP_WARN_MSG_ADPT_INFO, data });
}

/** CAR_INFO of a vehicle: the keys the standard lists that the product knows. */
export function carInfoOf(v: { vin: string | null; plateColour: number; owner: string; model: string | null }): CarInfo {
  const clean = (s: string) => s.replace(/;|:=/g, ' ');
  const out: Array<readonly [string, string]> = [];
  if (v.vin) out.push(['VIN', clean(v.vin)]);
  out.push(['VEHICLE_COLOR', String(v.plateColour)]);
  if (v.model) out.push(['VEHICLE_MODE', clean(v.model)]);
  out.push(['OWERS_NAME', clean(v.owner)]);
  return out;
}
