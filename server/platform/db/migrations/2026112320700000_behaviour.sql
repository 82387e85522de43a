-- Driving behaviour and vehicle health per vehicle per local day (FLEET_TIMEZONE), rebuilt by the
-- behaviour deriver for every day a derivation window touches. The safety score is not stored: it
-- is computed from these counts, the ledger's distance and driving time, and the organisation's
-- weights when read, so changing a weight needs no rebuild.

-- Per organisation (nearest ancestor with a row wins): score weights 0–10 and event thresholds.
-- Thresholds apply to what is derived from then on (`npm run derive` rebuilds the past).
CREATE TABLE safety_setting (
  org_id integer PRIMARY KEY REFERENCES organisation(id) ON DELETE CASCADE,
  weights jsonb NOT NULL DEFAULT '{}'::jsonb,
  thresholds jsonb NOT NULL DEFAULT '{}'::jsonb,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE behaviour_day (
  vehicle_id integer NOT NULL REFERENCES vehicle(id) ON DELETE CASCADE,
  day date NOT NULL,
  org_id integer NOT NULL,
  harsh_acceleration integer NOT NULL DEFAULT 0,
  harsh_braking integer NOT NULL DEFAULT 0,
  sharp_turn integer NOT NULL DEFAULT 0,
  -- Seconds inside trips above the OverSpeed policy's threshold.
  speeding_s integer NOT NULL DEFAULT 0,
  -- Fatigue alarms (the alarm engine's, terminal bits or policy) that fired this day.
  fatigue integer NOT NULL DEFAULT 0,
  -- Seconds driven inside trips during the night hours.
  night_s integer NOT NULL DEFAULT 0,
  -- Where the harsh counts came from: 'terminal' (its counters), 'computed' (speed and heading), or both.
  sources text[] NOT NULL DEFAULT '{}',
  PRIMARY KEY (vehicle_id, day)
);
CREATE INDEX behaviour_day_day_idx ON behaviour_day (day, vehicle_id);

CREATE TABLE health_day (
  vehicle_id integer NOT NULL REFERENCES vehicle(id) ON DELETE CASCADE,
  day date NOT NULL,
  org_id integer NOT NULL,
  -- 0–100 (README "Health").
  health_index integer NOT NULL,
  band text NOT NULL CHECK (band IN ('healthy', 'attention', 'fault')),
  -- Fault alarms open during the day, with their expert level.
  faults jsonb NOT NULL DEFAULT '[]'::jsonb,
  min_battery_v double precision,
  max_coolant_c double precision,
  alarm_count integer NOT NULL DEFAULT 0,
  PRIMARY KEY (vehicle_id, day)
);
CREATE INDEX health_day_day_idx ON health_day (day, vehicle_id);
