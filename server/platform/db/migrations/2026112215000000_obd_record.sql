-- OBD records terminals send as 0x0900 transparent data (type 0xF0): one row per (terminal,
-- device time, record subtype), so a retried message lands on the same key and is absorbed, and
-- the DTCs a record carried, one row each, for matching against the expert fault library.
-- vehicle_id is the vehicle the terminal was fitted to when the record arrived.
CREATE TABLE obd_record (
  terminal_id integer NOT NULL,
  device_time timestamptz NOT NULL,
  -- 1 PIDs, 2 DTCs, 3 alarms, 4 trip, 0x0B VIN, 0x15 events, others kept as they came.
  subtype smallint NOT NULL,
  vehicle_id integer,
  received_at timestamptz NOT NULL DEFAULT now(),
  archive boolean NOT NULL DEFAULT false,
  vehicle_type smallint NOT NULL DEFAULT 0,
  -- Position and raw status word that subtypes 1-3 carry after their data.
  latitude double precision,
  longitude double precision,
  status bigint,
  -- Named readings (odometerKm, fuelLevel, speedKmh, rpm, coolantTempC, vin) of a PID record.
  readings jsonb,
  -- Everything else decoded (PIDs, alarms, event, VIN, trailing bytes as hex).
  detail jsonb,
  dtc_count integer NOT NULL DEFAULT 0,
  PRIMARY KEY (terminal_id, device_time, subtype)
);
CREATE INDEX obd_record_vehicle_time_idx ON obd_record (vehicle_id, device_time);

CREATE TABLE obd_dtc (
  terminal_id integer NOT NULL,
  device_time timestamptz NOT NULL,
  -- Position of the code in its record (a retried record repeats the same keys).
  seq smallint NOT NULL,
  vehicle_id integer,
  -- Raw DWORDs as sent (bigint: a DWORD does not fit a signed integer).
  system_id bigint NOT NULL,
  dtc bigint NOT NULL,
  status bigint NOT NULL,
  code text NOT NULL,
  PRIMARY KEY (terminal_id, device_time, seq)
);
CREATE INDEX obd_dtc_vehicle_time_idx ON obd_dtc (vehicle_id, device_time);
CREATE INDEX obd_dtc_code_idx ON obd_dtc (code);
