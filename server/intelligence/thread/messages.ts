/**
 * What the server and its derivation thread say to each other (derivationThread.ts, worker.ts).
 * Everything crosses by structured clone: plain data only.
 */

import type { AlarmType } from '../alarms/types';
import type { RaisedAlarm } from '../alarms/store';
import type { PipelineStats, StoredSpan } from '../pipeline';
import type { ClosedTrip } from '../../platform/telemetry';

/** How the thread builds its pipeline (the worker's `workerData`). */
export interface ThreadConfig {
  /** PostgreSQL: the thread opens its own pool (an embedded database belongs to one thread). */
  databaseUrl: string;
  /** Connections of the thread's own pool (default DERIVE_THREAD_POOL). */
  poolSize?: number;
  /** Prepare repeated statements (DatabaseOptions.prepare; default on). */
  prepare?: boolean;
  timeZone: string;
  obdAlarmTypes?: ReadonlyMap<number, AlarmType>;
  /** The behaviour deriver after the alarms, as the server runs it (default true). */
  behaviour?: boolean;
  lingerMs?: number;
  batchSize?: number;
  workers?: number;
}

export type ToThread =
  /** What commits stored; `seq` is acknowledged once the marks are persisted. */
  { type: 'mark'; seq: number; spans: StoredSpan[] } | { type: 'idle'; id: number } | { type: 'stats'; id: number } | { type: 'stop' };

export type FromThread =
  | { type: 'ready' }
  | { type: 'marked'; seq: number }
  /** New alarms a pass committed, for the server to announce. */
  | { type: 'raised'; alarms: RaisedAlarm[] }
  /** Closed trips a pass committed new or changed, for the server to announce. */
  | { type: 'trips'; trips: ClosedTrip[] }
  | { type: 'idle'; id: number }
  | { type: 'stats'; id: number; stats: PipelineStats }
  | { type: 'log'; level: 'info' | 'warn'; obj: object; msg: string };
