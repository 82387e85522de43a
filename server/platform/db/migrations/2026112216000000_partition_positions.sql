-- The telematics time series (positions, OBD records and their DTCs) become tables RANGE-partitioned
-- by device time, one partition per UTC month: reads bounded in time touch only their months, and
-- old months can be dropped whole instead of deleted row by row. Every key already holds
-- device_time, as a partitioned table's unique keys must, so ON CONFLICT still absorbs retries.
-- A DEFAULT partition takes whatever no month partition covers (a terminal whose clock says 2000
-- or 2099), so an insert never fails for want of a partition; server/telematics/store/partitions.ts
-- creates the months ahead and moves such rows out when their month's partition is created.
--
-- Each table: rename the old one, create the partitioned one like it, create the month partitions
-- the rows need (plus this month and the next two), copy the rows, drop the old table, then build
-- the keys and indexes (after the copy: one index build per partition instead of row by row).

ALTER TABLE position RENAME TO position_unpartitioned;
ALTER TABLE obd_record RENAME TO obd_record_unpartitioned;
ALTER TABLE obd_dtc RENAME TO obd_dtc_unpartitioned;

CREATE TABLE position (LIKE position_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (device_time);
CREATE TABLE obd_record (LIKE obd_record_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (device_time);
CREATE TABLE obd_dtc (LIKE obd_dtc_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (device_time);

CREATE TABLE position_default PARTITION OF position DEFAULT;
CREATE TABLE obd_record_default PARTITION OF obd_record DEFAULT;
CREATE TABLE obd_dtc_default PARTITION OF obd_dtc DEFAULT;

DO $$
DECLARE
  t text;
  -- Start of a UTC month, as a timestamp without time zone (month arithmetic on timestamptz
  -- follows the session's time zone and its DST changes).
  m timestamp;
BEGIN
  FOREACH t IN ARRAY ARRAY['position', 'obd_record', 'obd_dtc'] LOOP
    FOR m IN EXECUTE format(
      'SELECT date_trunc(''month'', device_time AT TIME ZONE ''UTC'') FROM %I
       UNION
       SELECT date_trunc(''month'', now() AT TIME ZONE ''UTC'') + make_interval(months => n) FROM generate_series(0, 2) AS n',
      t || '_unpartitioned')
    LOOP
      EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)',
        t || '_p' || to_char(m, 'YYYYMM'), t, m AT TIME ZONE 'UTC', (m + interval '1 month') AT TIME ZONE 'UTC');
    END LOOP;
  END LOOP;
END
$$;

INSERT INTO position SELECT * FROM position_unpartitioned;
INSERT INTO obd_record SELECT * FROM obd_record_unpartitioned;
INSERT INTO obd_dtc SELECT * FROM obd_dtc_unpartitioned;

DROP TABLE position_unpartitioned;
DROP TABLE obd_record_unpartitioned;
DROP TABLE obd_dtc_unpartitioned;

ALTER TABLE position ADD PRIMARY KEY (terminal_id, device_time);
CREATE INDEX position_vehicle_time_idx ON position (vehicle_id, device_time);
CREATE INDEX position_alarm_idx ON position (vehicle_id, device_time) WHERE alarm <> 0;

ALTER TABLE obd_record ADD PRIMARY KEY (terminal_id, device_time, subtype);
CREATE INDEX obd_record_vehicle_time_idx ON obd_record (vehicle_id, device_time);

ALTER TABLE obd_dtc ADD PRIMARY KEY (terminal_id, device_time, seq);
CREATE INDEX obd_dtc_vehicle_time_idx ON obd_dtc (vehicle_id, device_time);
CREATE INDEX obd_dtc_code_idx ON obd_dtc (code);
