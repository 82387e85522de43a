-- When a suspected drain first read as one: the standing report at which its run, up to there, fell
-- beyond the threshold (server/intelligence/trips/fuel.ts). The drain's own time (half-way down)
-- moves while the level goes on falling, so its FuelDrain alarm is keyed by this instead: one drain,
-- one alarm, announced once. Rows derived before are filled in as their windows are derived again.
ALTER TABLE fuel_event ADD COLUMN detected_at timestamptz;
