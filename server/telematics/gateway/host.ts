/** What a session needs from its gateway (kept narrow so sessions stay testable on their own). */

import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/tables';
import type { LocationBody, SubpackageOptions } from '../jt808/codec';
import type { ObdWriter } from '../store/obdWriter';
import type { PositionWriter } from '../store/writer';
import type { Session } from './session';

export type GatewayLogger = Pick<FastifyBaseLogger, 'debug' | 'info' | 'warn' | 'error'>;

export interface GatewayLimits {
  /** Time to authenticate after connecting, ms. */
  authTimeoutMs: number;
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
  /** 0x0900 OBD records refused as malformed (layout or device time). */
  badObdRecords: number;
  storeFailures: number;
  replaced: number;
}

/** A terminal's answer to a platform message (0x0001, or 0x0201 for a location query). */
export interface TerminalResponse {
  terminalId: number;
  replySerial: number;
  replyMsgId: number;
  result: number;
  location?: LocationBody;
}

export interface SessionHost {
  db: Kysely<DB>;
  writer: PositionWriter;
  obdWriter: ObdWriter;
  limits: GatewayLimits;
  stats: GatewayStats;
  log: GatewayLogger;
  tzOffsetMinutes: number;
  onAuthenticated(s: Session): void;
  onClosed(s: Session): void;
  onPause(s: Session, paused: boolean): void;
  onResponse(r: TerminalResponse): void;
}
