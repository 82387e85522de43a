/**
 * The shapes of what terminals report, as stored and as the console reads them back: the server's
 * bus payloads (server/platform/telemetry.ts), the message route and the vehicle detail's message
 * tab all build on these, so a field added to a report is added once.
 */

/** The decoded fields of one stored position report (0x0200 / 0x0704), beyond its keys and times. */
export interface PositionFields {
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
}

/** A diagnostic trouble code as an OBD record carries it. */
export interface ObdDtc {
  systemId: number;
  dtc: number;
  status: number;
  text: string;
}

/** Named readings of the PIDs the reference lists. */
export interface ObdRecordValues {
  odometerKm?: number; // 0x0102, x100 m
  fuelLevel?: number; // 0x052A, x0.01
  speedKmh?: number; // 0x0535, x0.1
  rpm?: number; // 0x0536
  coolantTempC?: number; // 0x052D, -40
  vin?: string; // 0xFEEC
}

/** The fields of one stored OBD record (0x0900, transparent type 0xF0) both sides read. */
export interface ObdRecordFields {
  subtype: number;
  latitude: number | null;
  longitude: number | null;
  readings: ObdRecordValues | null;
  detail: Record<string, unknown> | null;
}

/** A stored position as the message route pages it: times as ISO text, its bits by name. */
export interface PositionMessage extends PositionFields {
  time: string;
  receivedAt: string;
  alarms: string[];
  statusBits: string[];
}

/** A stored OBD record as the message route pages it (subtype 1 PIDs, 2 DTCs, 3 alarms, 4 trip, …). */
export interface ObdMessage extends ObdRecordFields {
  time: string;
  receivedAt: string;
  dtcCount: number;
}
