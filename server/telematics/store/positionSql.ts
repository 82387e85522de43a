/** The SQL both position storage paths share (unnest in writer.ts, COPY in copyPositions.ts). */

export const keyOf = (terminalId: number, ms: number) => `${terminalId}|${ms}`;

/**
 * How far a device time may run ahead of the server's clock and still become the vehicle's latest
 * state: a clock gone wrong (a device reporting 2059) would otherwise pin the state, since only a
 * newer time moves it. Such positions are still kept in the history. A state already further ahead
 * (stored before this rule) gives way to the next report.
 */
export const STATE_AHEAD_LIMIT = "interval '15 minutes'";

/**
 * After `input` (the batch, however it arrived): insert the positions (duplicates of the key
 * ignored) and move each vehicle's latest state forward when a newer device time arrives (not one
 * beyond STATE_AHEAD_LIMIT); answers the keys actually inserted. Shared by the unnest statement
 * and the COPY path.
 */
export const STORE_FROM_INPUT = `
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
      WHERE i.device_time <= now() + ${STATE_AHEAD_LIMIT}
      ORDER BY i.vehicle_id, i.device_time DESC
      ON CONFLICT (vehicle_id) DO UPDATE SET
        terminal_id = excluded.terminal_id, device_time = excluded.device_time, received_at = now(),
        latitude = excluded.latitude, longitude = excluded.longitude, speed = excluded.speed,
        direction = excluded.direction, alarm = excluded.alarm, status = excluded.status, acc = excluded.acc,
        mileage_km = COALESCE(excluded.mileage_km, vehicle_state.mileage_km),
        fuel_l = COALESCE(excluded.fuel_l, vehicle_state.fuel_l),
        dtcs = COALESCE(excluded.dtcs, vehicle_state.dtcs)
      WHERE vehicle_state.device_time < excluded.device_time OR vehicle_state.device_time > now() + ${STATE_AHEAD_LIMIT}
      RETURNING 1
    )
    SELECT terminal_id, (extract(epoch FROM device_time) * 1000)::float8 AS ms FROM ins`;

export const INPUT_COLUMNS = `terminal_id int, device_time timestamptz, vehicle_id int, latitude float8, longitude float8, altitude int,
  speed real, direction int, alarm bigint, status bigint, acc boolean, fixed boolean, mileage_km float8, fuel_l float8,
  blind boolean, extras text, dtcs text`;

export const insertedKeys = (rows: Array<{ terminal_id: number; ms: number }>): Set<string> =>
  new Set(rows.map((r) => keyOf(r.terminal_id, Math.round(Number(r.ms)))));
