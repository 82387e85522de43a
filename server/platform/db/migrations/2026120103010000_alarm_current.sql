-- A current alarm (server/intelligence/alarms/current.ts) is open, or ended recently and not
-- handled: the second arm by its end time, so the dashboard's and the live map's alarming
-- vehicles are read by two small index scans whatever the alarm history holds.
CREATE INDEX alarm_unhandled_end_idx ON alarm (end_time) WHERE state = 'current' AND NOT handled AND end_time IS NOT NULL;
