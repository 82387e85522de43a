/** What a session needs from its gateway (kept narrow so sessions stay testable on their own). */

import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type pg from 'pg';
import type { DB } from '../../platform/db/tables';
import type { FrameTap } from '../../platform/telemetry';
import type { JsonValue, LocationBody, SubpackageOptions, TerminalParam, VideoResource } from '../jt808/codec';
import type { MediaStore } from '../media/mediaStore';
import type { ObdWriter } from '../store/obdWriter';
import type { PositionWriter } from '../store/writer';
import type { ChecksumPolicy } from './checksumPolicy';
import type { SafetyStandardPolicy } from './safetyStandard';
import type { AttachmentRequester } from '../attachments/requests';
import type { RefusalLog } from './refusals';
import type { Session } from './session';

export type GatewayLogger = Pick<FastifyBaseLogger, 'debug' | 'info' | 'warn' | 'error'>;

export interface GatewayLimits {
  /** Silence allowed before authentication, ms. */
  authTimeoutMs: number;
  /** Absolute deadline from connect to authenticated, ms, however the bytes trickle in. */
  handshakeTimeoutMs: number;
  /** Connections still in the handshake, overall and per source address; more are closed at once. */
  maxPending: number;
  maxPendingPerAddress: number;
  /**
   * A login from another address than the terminal's live session: how long the live session is
   * given to answer a location query before it is taken for dead and replaced, ms.
   */
  takeoverProbeMs: number;
  /** Refused attempts written per terminal per window; the rest are counted on the next row. */
  refusalsPerWindow: number;
  refusalWindowMs: number;
  /** Silence after which an authenticated connection is dropped, ms (heartbeats keep it open). */
  idleTimeoutMs: number;
  /** Largest frame, unescaped. */
  maxFrameBytes: number;
  /** Packets received but not handled yet before reads pause. */
  maxQueuedPackets: number;
  /** Positions waiting for their commit before reads pause. */
  maxPendingRecords: number;
  /** Unsent output before a connection that does not read is dropped. */
  maxOutputBytes: number;
  /** Messages refused (before authentication or for another terminal) before the connection is dropped. */
  maxRefused: number;
  maxAuthFailures: number;
  /** Undecodable frames in a row before the connection is dropped. */
  maxBadFrames: number;
  subpackage: Pick<SubpackageOptions, 'maxBytes' | 'maxSets' | 'timeoutMs'>;
}

export const DEFAULT_LIMITS: GatewayLimits = {
  authTimeoutMs: 30_000,
  handshakeTimeoutMs: 30_000,
  maxPending: 1000,
  maxPendingPerAddress: 64,
  takeoverProbeMs: 5000,
  refusalsPerWindow: 5,
  refusalWindowMs: 60_000,
  idleTimeoutMs: 180_000,
  maxFrameBytes: 4096,
  maxQueuedPackets: 256,
  maxPendingRecords: 4096,
  maxOutputBytes: 64 * 1024,
  maxRefused: 8,
  maxAuthFailures: 3,
  maxBadFrames: 32,
  subpackage: { maxBytes: 256 * 1024, maxSets: 8, timeoutMs: 60_000 },
};

export interface GatewayStats {
  connections: number;
  messages: number;
  registrations: number;
  authentications: number;
  authFailures: number;
  refusedTerminals: number;
  refusedMessages: number;
  badFrames: number;
  droppedFrames: number;
  untimedPositions: number;
  /** Positions refused because latitude or longitude lies off the globe. */
  offGlobePositions: number;
  /** 0x0900 OBD records refused as malformed (layout or device time). */
  badObdRecords: number;
  storeFailures: number;
  replaced: number;
  /** Connections closed at accept because a cap was reached. */
  refusedConnections: number;
  /** Connections cut at the handshake deadline. */
  handshakeTimeouts: number;
  /** Logins refused because the terminal's live session elsewhere answered. */
  takeoversRefused: number;
  /** Frames with a wrong checksum decoded and flagged (the model's policy accepts them). */
  checksumAccepted: number;
  /** Frames with a wrong checksum answered as a message error. */
  checksumRefused: number;
  /** Frames whose body-length field disagreed with the bytes (read as the bytes say). */
  lengthMismatches: number;
  /** Waybills and vendor messages kept. */
  keptMessages: number;
}

/**
 * A terminal's answer to a platform message (0x0001, 0x0201 for a location query, 0x0104 for a
 * parameter query, 0x0500 for vehicle control, 0x0107 for an attributes query, 0x0805 for take photo,
 * 0x1205 for a resource query).
 */
export interface TerminalResponse {
  terminalId: number;
  /** null: the answer names no serial (0x0107), it answers the oldest pending `replyMsgId` of the terminal. */
  replySerial: number | null;
  replyMsgId: number;
  result: number;
  location?: LocationBody;
  params?: TerminalParam[];
  /** 0x0107, as JSON. */
  attributes?: JsonValue;
  /** 0x0805: the media ids of the photos taken (their uploads follow as 0x0801). */
  mediaIds?: number[];
  /** 0x0108: the package type and the result (0 upgraded, 1 failed, 2 cancelled). */
  upgrade?: { type: number; result: number };
  /** 0x1205: the recordings a 0x9205 asked for. */
  resources?: VideoResource[];
}

/**
 * A terminal's authenticated session ended (closed, or replaced by a new login): whatever was sent
 * down through it can no longer be answered. `session` names the session (unique across processes).
 */
export interface SessionEnded {
  terminalId: number;
  session: string;
}

/**
 * A terminal's session became live (authenticated) in some gateway process: published to the
 * others, so a process still holding an older session of the same terminal closes it. `at` (ms,
 * when it was authenticated) and then `session` order two logins, so exactly one survives a race.
 */
export interface SessionOpened {
  terminalId: number;
  session: string;
  at: number;
  remoteAddress: string | null;
}

/** Whether `a` is the later login of the two (the one that stays). */
export const isLaterLogin = (a: Pick<SessionOpened, 'at' | 'session'>, b: Pick<SessionOpened, 'at' | 'session'>) =>
  a.at > b.at || (a.at === b.at && a.session > b.session);

/**
 * The other gateway processes, as one gateway sees them (with NATS: cluster/downlink.ts): asked
 * before a login takes a terminal whose live session another process holds.
 */
export interface GatewayPeers {
  /** The holder's verdict (mayTakeOver's rule, applied where the session lives); true when nobody holds it. */
  mayTakeOver(terminalId: number, remoteAddress: string | null): Promise<boolean>;
}

/** A message sent down: its serial and the session it went out on. */
export interface Dispatched {
  serial: number;
  session: string;
}

export interface SessionHost {
  db: Kysely<DB>;
  /** PostgreSQL only: the pool behind `db`, for prepared statements on the handshake path. */
  pool?: pg.Pool;
  writer: PositionWriter;
  obdWriter: ObdWriter;
  /** Null: media are kept in the message log like other decoded messages. */
  media: MediaStore | null;
  limits: GatewayLimits;
  stats: GatewayStats;
  log: GatewayLogger;
  tzOffsetMinutes: number;
  refusals: RefusalLog;
  checksum: ChecksumPolicy;
  safety: SafetyStandardPolicy;
  /** Null: no attachment service, no 0x9208. */
  attachments: AttachmentRequester | null;
  /**
   * Whether `s` may become the live session of `terminalId`: no live session, or one from the same
   * address, or one elsewhere that does not answer a probe in time (taken for dead).
   */
  mayTakeOver(s: Session, terminalId: number): Promise<boolean>;
  onAuthenticated(s: Session): void;
  onClosed(s: Session): void;
  onPause(s: Session, paused: boolean): void;
  onResponse(r: TerminalResponse): void;
  /** Told every packet of an authenticated terminal (forwarding); absent, nobody is. */
  frameTap?: FrameTap;
  /** Told each acknowledgement's seconds since the report went to the store (/metrics); absent, nobody is. */
  acked?: (seconds: number) => void;
}
