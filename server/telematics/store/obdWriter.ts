/**
 * The OBD record writer: batches of 0x0900 OBD records and their DTCs in one statement over
 * unnest arrays; DTC rows are written only with a record inserted by that statement, so a retried
 * record adds nothing. Batching and acknowledgement after commit are BatchWriter's.
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import { BatchWriter, type WriterOptions } from './batchWriter';
import { executeStoring } from './attachRace';
import type { ObdRecordRow } from './obdRecords';

const keyOf = (terminalId: number, ms: number, subtype: number) => `${terminalId}|${ms}|${subtype}`;

export class ObdWriter extends BatchWriter<ObdRecordRow> {
  constructor(db: Kysely<DB>, opts: WriterOptions = {}) {
    super(db, { insert: insertObdRecords, keyOf: (r) => keyOf(r.terminalId, r.deviceTime, r.subtype) }, opts);
  }
}

const json = (v: unknown) => (v === null ? null : JSON.stringify(v));

/** Inserts the records (duplicates of the key ignored) and the DTCs of those inserted; returns the keys inserted. */
export async function insertObdRecords(db: Kysely<DB>, records: ObdRecordRow[]): Promise<Set<string>> {
  const col = <T>(f: (r: ObdRecordRow) => T): T[] => records.map(f);
  const iso = (ms: number) => new Date(ms).toISOString();
  const dtcs = records.flatMap((r) => r.dtcs.map((d, seq) => ({ r, d, seq })));
  const dcol = <T>(f: (x: (typeof dtcs)[number]) => T): T[] => dtcs.map(f);
  const statement = sql<{ terminal_id: number; ms: number; subtype: number }>`
    WITH input AS (
      SELECT * FROM unnest(
        ${col((r) => r.terminalId)}::int[], ${col((r) => iso(r.deviceTime))}::timestamptz[], ${col((r) => r.subtype)}::smallint[],
        ${col((r) => r.vehicleId)}::int[], ${col((r) => r.archive)}::boolean[], ${col((r) => r.vehicleType)}::smallint[],
        ${col((r) => r.latitude)}::float8[], ${col((r) => r.longitude)}::float8[], ${col((r) => r.status)}::bigint[],
        ${col((r) => json(r.readings))}::text[], ${col((r) => json(r.detail))}::text[], ${col((r) => r.dtcs.length)}::int[]
      ) AS t(terminal_id, device_time, subtype, vehicle_id, archive, vehicle_type, latitude, longitude, status,
             readings, detail, dtc_count)
    ),
    ins AS (
      INSERT INTO obd_record (terminal_id, device_time, subtype, vehicle_id, archive, vehicle_type, latitude, longitude,
                              status, readings, detail, dtc_count)
      SELECT terminal_id, device_time, subtype, vehicle_id, archive, vehicle_type, latitude, longitude,
             status, readings::jsonb, detail::jsonb, dtc_count
      FROM input
      ON CONFLICT (terminal_id, device_time, subtype) DO NOTHING
      RETURNING terminal_id, device_time, subtype
    ),
    dtc_input AS (
      SELECT * FROM unnest(
        ${dcol((x) => x.r.terminalId)}::int[], ${dcol((x) => iso(x.r.deviceTime))}::timestamptz[], ${dcol((x) => x.r.subtype)}::smallint[],
        ${dcol((x) => x.seq)}::smallint[], ${dcol((x) => x.r.vehicleId)}::int[], ${dcol((x) => x.d.systemId)}::bigint[],
        ${dcol((x) => x.d.dtc)}::bigint[], ${dcol((x) => x.d.status)}::bigint[], ${dcol((x) => x.d.text)}::text[]
      ) AS d(terminal_id, device_time, subtype, seq, vehicle_id, system_id, dtc, status, code)
    ),
    dtc_ins AS (
      INSERT INTO obd_dtc (terminal_id, device_time, seq, vehicle_id, system_id, dtc, status, code)
      SELECT d.terminal_id, d.device_time, d.seq, d.vehicle_id, d.system_id, d.dtc, d.status, d.code
      FROM dtc_input d
      JOIN ins ON ins.terminal_id = d.terminal_id AND ins.device_time = d.device_time AND ins.subtype = d.subtype
      ON CONFLICT (terminal_id, device_time, seq) DO NOTHING
      RETURNING 1
    )
    SELECT terminal_id, (extract(epoch FROM device_time) * 1000)::float8 AS ms, subtype FROM ins`;
  const result = await executeStoring(db, statement);
  return new Set(result.rows.map((r) => keyOf(r.terminal_id, Math.round(Number(r.ms)), r.subtype)));
}
