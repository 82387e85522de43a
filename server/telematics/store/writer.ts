/**
 * The position writer: batches of positions, one statement over unnest arrays (a VALUES list is
 * capped at 65,535 parameters) that also upserts the latest state per vehicle. Batching,
 * acknowledgement after commit and backpressure are BatchWriter's.
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/tables';
import { BatchWriter, type StoredRecords, type WriterOptions } from './batchWriter';
import type { PositionRecord } from './records';

export type { WriterOptions, WriterStats } from './batchWriter';
export type StoredBatch = StoredRecords<PositionRecord>;

/** Events: 'stored' (StoredBatch) after each commit, 'saturated' / 'drain', 'error'. */
export class PositionWriter extends BatchWriter<PositionRecord> {
  constructor(db: Kysely<DB>, opts: WriterOptions = {}) {
    super(db, { insert: insertPositions, keyOf: (r) => keyOf(r.terminalId, r.deviceTime) }, opts);
  }
}

const keyOf = (terminalId: number, ms: number) => `${terminalId}|${ms}`;

/**
 * One statement: insert the positions (duplicates of the key ignored) and move each vehicle's
 * latest state forward when a newer device time arrives. Returns the keys actually inserted.
 */
export async function insertPositions(db: Kysely<DB>, records: PositionRecord[]): Promise<Set<string>> {
  const col = <T>(f: (r: PositionRecord) => T): T[] => records.map(f);
  const times = col((r) => new Date(r.deviceTime).toISOString());
  const result = await sql<{ terminal_id: number; ms: number }>`
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
    ),
    ins AS (
      INSERT INTO position (terminal_id, device_time, vehicle_id, latitude, longitude, altitude, speed, direction,
                            alarm, status, acc, fixed, mileage_km, fuel_l, blind, extras)
      SELECT terminal_id, device_time, vehicle_id, latitude, longitude, altitude, speed, direction,
             alarm, status, acc, fixed, mileage_km, fuel_l, blind, extras::jsonb
      FROM input
      ON CONFLICT (terminal_id, device_time) DO NOTHING
      RETURNING terminal_id, device_time
    ),
    latest AS (
      INSERT INTO vehicle_state (vehicle_id, terminal_id, device_time, latitude, longitude, speed, direction,
                                 alarm, status, acc, mileage_km, fuel_l, dtcs)
      SELECT DISTINCT ON (i.vehicle_id) i.vehicle_id, i.terminal_id, i.device_time, i.latitude, i.longitude, i.speed,
             i.direction, i.alarm, i.status, i.acc, i.mileage_km, i.fuel_l, string_to_array(i.dtcs, ',')
      FROM input i
      -- A vehicle deleted meanwhile must not fail the batch (its positions are still kept).
      JOIN vehicle v ON v.id = i.vehicle_id
      ORDER BY i.vehicle_id, i.device_time DESC
      ON CONFLICT (vehicle_id) DO UPDATE SET
        terminal_id = excluded.terminal_id, device_time = excluded.device_time, received_at = now(),
        latitude = excluded.latitude, longitude = excluded.longitude, speed = excluded.speed,
        direction = excluded.direction, alarm = excluded.alarm, status = excluded.status, acc = excluded.acc,
        mileage_km = COALESCE(excluded.mileage_km, vehicle_state.mileage_km),
        fuel_l = COALESCE(excluded.fuel_l, vehicle_state.fuel_l),
        dtcs = COALESCE(excluded.dtcs, vehicle_state.dtcs)
      WHERE vehicle_state.device_time < excluded.device_time
      RETURNING 1
    )
    SELECT terminal_id, (extract(epoch FROM device_time) * 1000)::float8 AS ms FROM ins`.execute(db);
  return new Set(result.rows.map((r) => keyOf(r.terminal_id, Math.round(Number(r.ms)))));
}
