/** What the OBD store keeps of one 0x0900 OBD record (transparent type 0xF0). */

import type { ObdRecordRow, TerminalIdentity } from '../../platform/telemetry';
import type { ObdRecord as DecodedObdRecord } from '../jt808/codec';

export type { ObdRecordRow };

/** Transparent type of OBD records (Traccar's reading of 0xF0). */
export const OBD_RECORD_TYPE = 0xf0;

/**
 * A decoded OBD record as a row, or null when it carries no valid device time (nothing to key it
 * by: the message is refused as malformed).
 */
export function toObdRow(identity: TerminalIdentity, r: DecodedObdRecord): ObdRecordRow | null {
  if (r.timestamp === null) return null;
  const detail: Record<string, unknown> = {};
  if (r.pids) detail.pids = r.pids;
  if (r.alarms) detail.alarms = r.alarms;
  if (r.vin !== undefined) detail.vin = r.vin;
  if (r.event !== undefined) detail.event = r.event;
  if (r.restHex) detail.restHex = r.restHex;
  return {
    terminalId: identity.terminalId,
    vehicleId: identity.vehicleId,
    deviceTime: r.timestamp,
    subtype: r.subtype,
    archive: r.archive,
    vehicleType: r.vehicleType,
    latitude: r.position?.latitude ?? null,
    longitude: r.position?.longitude ?? null,
    status: r.position ? r.position.status.raw >>> 0 : null,
    readings: r.values && Object.keys(r.values).length ? r.values : null,
    detail: Object.keys(detail).length ? detail : null,
    dtcs: r.dtcs ?? [],
  };
}
