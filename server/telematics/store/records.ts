/** What the position store keeps of one decoded location report. */

import type { PositionRecord, TerminalIdentity } from '../../platform/telemetry';
import type { LocationBody } from '../jt808/codec';

export type { PositionRecord, TerminalIdentity };

/** DTCs from whichever OBD extension carried them. */
function dtcsOf(x: LocationBody['extras']): string[] | null {
  return x.obd?.dtcs ?? x.obdF3?.dtcs ?? null;
}

/**
 * Why a location body is not stored: no valid device time (nothing to key it by: acknowledged
 * and counted), or a place off the globe (|latitude| > 90°, |longitude| > 180°: refused as
 * malformed, never the vehicle's place). Null: it is stored. Four comparisons, after decoding.
 */
export function positionFault(b: LocationBody): 'untimed' | 'offGlobe' | null {
  if (b.timestamp === null) return 'untimed';
  if (!(b.latitude >= -90 && b.latitude <= 90 && b.longitude >= -180 && b.longitude <= 180)) return 'offGlobe';
  return null;
}

/**
 * A location body as a record, or null when it carries no valid device time (see positionFault:
 * the session stores only bodies without a fault).
 */
export function toRecord(identity: TerminalIdentity, b: LocationBody, blind: boolean): PositionRecord | null {
  if (b.timestamp === null) return null;
  const { mileageKm, fuelL, ...rest } = b.extras;
  return {
    terminalId: identity.terminalId,
    vehicleId: identity.vehicleId,
    deviceTime: b.timestamp,
    latitude: b.latitude,
    longitude: b.longitude,
    altitude: b.altitude,
    speed: b.speed,
    direction: b.direction,
    alarm: b.alarm.raw >>> 0,
    status: b.status.raw >>> 0,
    acc: b.status.accOn,
    fixed: b.status.fixed,
    mileageKm: mileageKm ?? null,
    fuelL: fuelL ?? null,
    blind,
    extras: Object.keys(rest).length ? rest : null,
    dtcs: dtcsOf(b.extras),
  };
}
