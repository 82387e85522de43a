/**
 * The position writer: batches of positions, one statement over unnest arrays (a VALUES list is
 * capped at 65,535 parameters) that also upserts the latest state per vehicle. Batching,
 * acknowledgement after commit and backpressure are BatchWriter's.
 */

import { sql, type Kysely } from 'kysely';
import type pg from 'pg';
import type { DB } from '../../platform/db/tables';
import { BatchWriter, type StoredRecords, type WriterOptions } from './batchWriter';
import { executeStoring } from './attachRace';
import { copyPositions } from './copyPositions';
import { insertedKeys, keyOf, STORE_FROM_INPUT } from './positionSql';
import type { PositionRecord } from './records';

export type { WriterOptions, WriterStats } from './batchWriter';
export type StoredBatch = StoredRecords<PositionRecord>;

export interface PositionWriterOptions extends WriterOptions {
  /** PostgreSQL's pool: batches go in with COPY (measured faster); without it, one unnest statement. */
  copyPool?: pg.Pool;
}

/** Events: 'stored' (StoredBatch) after each commit, 'saturated' / 'drain', 'error'. */
export class PositionWriter extends BatchWriter<PositionRecord> {
  constructor(db: Kysely<DB>, opts: PositionWriterOptions = {}) {
    const { copyPool, ...rest } = opts;
    const insert = copyPool ? (_db: Kysely<DB>, records: PositionRecord[]) => copyPositions(copyPool, records) : insertPositions;
    super(db, { insert, keyOf: (r) => keyOf(r.terminalId, r.deviceTime) }, rest);
  }
}

/** One statement over unnest arrays (PGlite, and the fallback): see STORE_FROM_INPUT. */
export async function insertPositions(db: Kysely<DB>, records: PositionRecord[]): Promise<Set<string>> {
  const col = <T>(f: (r: PositionRecord) => T): T[] => records.map(f);
  const times = col((r) => new Date(r.deviceTime).toISOString());
  const statement = sql<{ terminal_id: number; ms: number }>`
    WITH input AS (
      SELECT * FROM unnest(
        ${col((r) => r.terminalId)}::int[], ${times}::timestamptz[], ${col((r) => r.vehicleId)}::int[],
        ${col((r) => r.latitude)}::float8[], ${col((r) => r.longitude)}::float8[], ${col((r) => r.altitude)}::int[],
        ${col((r) => r.speed)}::real[], ${col((r) => r.direction)}::int[], ${col((r) => r.alarm)}::bigint[],
        ${col((r) => r.status)}::bigint[], ${col((r) => r.acc)}::boolean[], ${col((r) => r.fixed)}::boolean[],
        ${col((r) => r.mileageKm)}::float8[], ${col((r) => r.fuelL)}::float8[], ${col((r) => r.blind)}::boolean[],
        ${col((r) => (r.extras ? JSON.stringify(r.extras) : null))}::text[],
        ${col((r) => (r.dtcs ? r.dtcs.join(',') : null))}::text[]
      ) AS t(terminal_id, device_time, vehicle_id, latitude, longitude, altitude, speed, direction, alarm,
             status, acc, fixed, mileage_km, fuel_l, blind, extras, dtcs)
    ),${sql.raw(STORE_FROM_INPUT)}`;
  const result = await executeStoring(db, statement);
  return insertedKeys(result.rows);
}
