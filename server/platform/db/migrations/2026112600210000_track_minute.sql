-- The replay's pre-decimated levels (DESIGN.md "Derived data", issue 12 §7): one row per vehicle,
-- level (buckets of 1 or 10 minutes) and UTC bucket that has reports, rebuilt by the trackMinute
-- deriver for every window the pipeline derives, so a month replayed with maxPoints reads ~4,300
-- ten-minute rows (or ~43,000 one-minute rows for a shorter range) instead of ~259,000 positions.
-- A row depends only on the reports inside its bucket (the GNSS steps between buckets are the
-- reader's, from the neighbouring rows' points), so a late report changes only its own buckets.
-- No foreign key, like position: a pass writes a row per minute it rebuilds, and a key check per
-- row was most of the insert; a deleted vehicle's rows stay, as its positions do.
CREATE TABLE track_minute (
  vehicle_id integer NOT NULL,
  -- The level: minutes per bucket (1 or 10).
  span_minutes smallint NOT NULL,
  -- The bucket's first minute.
  minute timestamptz NOT NULL,
  -- Reports inside the bucket.
  n integer NOT NULL,
  -- GNSS distance of the steps between the bucket's own reports, standing jitter left out as the
  -- raw replay's summary leaves it out (speed < 5 km/h at both ends and < 30 m).
  gnss_km double precision NOT NULL,
  -- The odometer (0x01) of the bucket's first and last report that have one, and whether it never
  -- ran backwards inside the bucket.
  odo_first double precision,
  odo_last double precision,
  odo_sane boolean NOT NULL,
  max_speed real NOT NULL,
  -- The bucket's first report, its fastest, its slowest and its last (each once, in time order), as
  -- the replay reads them: `k,ms,lat,lon,speed,direction,acc,…` with k points of six fields. Kept
  -- as text so a month's read is a concatenation, not a million number-to-text conversions.
  points text NOT NULL,
  PRIMARY KEY (vehicle_id, span_minutes, minute)
);

-- Per vehicle: the levels hold every report from `covered_from` on (through what is derived).
-- Reports before it (stored before this level existed, until `npm run derive` rebuilds them) are
-- read raw.
CREATE TABLE track_minute_cover (
  vehicle_id integer PRIMARY KEY REFERENCES vehicle(id) ON DELETE CASCADE,
  covered_from timestamptz NOT NULL
);
