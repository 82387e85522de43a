/** What the position store keeps of one decoded location report. */

import type { LocationBody } from '../jt808/codec';

/** The terminal a session authenticated as, with the vehicle it is fitted to (if any). */
export interface TerminalIdentity {
  terminalId: number;
  terminalNo: string;
  sim: string;
  orgId: number;
  /** Organisation path of the terminal ('/1/4/'), for scoping commands. */
  orgPath: string;
  vehicleId: number | null;
  licence: string | null;
  /** Organisation path of the vehicle, for scoping live push. */
  vehicleOrgPath: string | null;
}

export interface PositionRecord {
  terminalId: number;
  vehicleId: number | null;
  /** Device time, epoch ms (the key together with terminalId). */
  deviceTime: number;
  latitude: number;
  longitude: number;
  altitude: number;
  speed: number;
  direction: number;
  /** Unsigned 32-bit words. */
  alarm: number;
  status: number;
  acc: boolean;
  fixed: boolean;
  mileageKm: number | null;
  fuelL: number | null;
  /** Re-uploaded after a blind area (0x0704 type 1). */
  blind: boolean;
  /** Additional items beyond the columns, as decoded; null when there are none. */
  extras: Record<string, unknown> | null;
  dtcs: string[] | null;
}

/** DTCs from whichever OBD extension carried them. */
function dtcsOf(x: LocationBody['extras']): string[] | null {
  return x.obd?.dtcs ?? x.obdF3?.dtcs ?? null;
}

/**
 * A location body as a record, or null when it carries no valid device time (nothing to key it
 * by: such reports are acknowledged and counted, not stored).
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
