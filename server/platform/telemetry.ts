/**
 * What terminals report, as stored: the payload types of the bus topics (platform/bus.ts) that
 * telematics publishes and other features (live push, the derivation pipeline) subscribe to. Both
 * sides import them from here, so neither imports the other.
 */

import type { LiveRaisedAlarm } from '../../schemas/kit/monitor';
import type { ObdDtc, ObdRecordFields, ObdRecordValues, PositionFields } from '../../schemas/kit/telemetry';

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

/** A stored position report: the decoded fields (schemas/kit/telemetry) with its keys. */
export interface PositionRecord extends PositionFields {
  terminalId: number;
  vehicleId: number | null;
  /** Device time, epoch ms (the key together with terminalId). */
  deviceTime: number;
  dtcs: string[] | null;
}

export type { ObdDtc, ObdRecordValues };

/** What the OBD store keeps of one 0x0900 OBD record (transparent type 0xF0). */
export interface ObdRecordRow extends ObdRecordFields {
  terminalId: number;
  vehicleId: number | null;
  /** Device time, epoch ms (the key together with terminalId and subtype). */
  deviceTime: number;
  archive: boolean;
  vehicleType: number;
  /** Unsigned 32-bit status word of the record's position, when it carried one. */
  status: number | null;
  dtcs: ObdDtc[];
}

/**
 * Told every packet an authenticated terminal sent (unescaped, header to checksum, as the gateway's
 * splitter gives it), with the terminal: forwarding passes them on to partner platforms.
 */
export type FrameTap = (terminal: TerminalIdentity, packet: Buffer) => void;

/** One committed batch of a writer. */
export interface StoredRecords<R> {
  /** Records written for the first time, with their source (duplicates are left out). */
  inserted: Array<{ source: TerminalIdentity; record: R }>;
}

export type StoredPositions = StoredRecords<PositionRecord>;
export type StoredObdRecords = StoredRecords<ObdRecordRow>;

/** An alarm a feature raised (the alarm engine publishes it; live push and notifications listen). */
export interface AlarmRaised {
  alarmId: number;
  vehicleId: number;
  /** Organisation path of the vehicle, for scoping subscribers. */
  orgPath: string;
  type: string;
  /** Epoch ms of the report that raised it. */
  at: number;
}

/** The bus topics of telemetry and what each carries. */
export interface TelemetryTopics {
  /** Positions committed by the position writer (acknowledged to terminals only after this). */
  'positions.stored': StoredPositions;
  /** OBD records committed by the OBD writer. */
  'obd.stored': StoredObdRecords;
  'alarm.raised': AlarmRaised;
  /**
   * New alarms for the live toast, with the members the notification rules chose: decided once
   * across processes, then pushed by every process to the members connected to it.
   */
  'alarm.pushed': AlarmPushed;
  /** Trips a derivation pass closed or changed once closed, after it committed (event subscriptions listen). */
  'trips.closed': TripsClosed;
  /** A downlink command answered, refused or expired (its row in terminal_command is final). */
  'command.finished': CommandFinished;
  /** A media file a terminal uploaded, stored for the first time. */
  'media.stored': MediaStored;
}

/** A closed trip as the trips deriver wrote it (times epoch ms). */
export interface ClosedTrip {
  vehicleId: number;
  begin: number;
  end: number;
  durationS: number;
  distanceKm: number;
  distanceSource: string;
  fuelL: number | null;
  idleS: number;
  maxSpeed: number;
  avgSpeed: number;
  start: { latitude: number; longitude: number };
  stop: { latitude: number; longitude: number };
}

export interface TripsClosed {
  trips: ClosedTrip[];
}

export interface CommandFinished {
  commandId: number;
  terminalId: number;
}

export interface MediaStored {
  mediaId: number;
  terminalId: number;
  vehicleId: number | null;
}

export interface AlarmPushed {
  items: Array<{ orgPath: string; alarm: LiveRaisedAlarm; memberIds: number[] }>;
}
