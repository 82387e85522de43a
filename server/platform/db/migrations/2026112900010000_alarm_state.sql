-- What derivation does to an operator's work: a handled alarm (handler, time, note) is never
-- deleted. When new data changes it, it stays as history: 'withdrawn' when the detectors no longer
-- find it, 'superseded' when an alarm of the same vehicle, type and subject overlapping it in time
-- replaced it (moved, merged, split), with `superseded_by` the one that replaced it, which takes
-- its handling over (server/intelligence/alarms/store.ts). Only 'current' alarms are open, counted
-- and rebuilt.
ALTER TABLE alarm ADD COLUMN state text NOT NULL DEFAULT 'current' CHECK (state IN ('current', 'withdrawn', 'superseded'));
ALTER TABLE alarm ADD COLUMN superseded_by integer REFERENCES alarm(id) ON DELETE SET NULL;
-- A superseded alarm may have been open when it was replaced: one open alarm per key among the current ones.
DROP INDEX alarm_one_open;
CREATE UNIQUE INDEX alarm_one_open ON alarm (vehicle_id, type, subject) WHERE end_time IS NULL AND state = 'current';
DROP INDEX alarm_current_idx;
CREATE INDEX alarm_current_idx ON alarm (begin_time DESC) WHERE state = 'current' AND (end_time IS NULL OR NOT handled);
