-- What each vehicle's passes judged their reports by, so that a pass tells an alarm found in
-- history because the alarms' settings changed (listed, never announced) from one new data made
-- (announced): the snapshot of the statement that took the last pass's marks, the version of the
-- alarms' settings it judged by (policies, fences and their links, organisations), and, since those
-- last changed, the snapshot of the last pass before: a report it saw was judged by the old ones.
ALTER TABLE derive_state ADD COLUMN marks_snapshot pg_snapshot;
ALTER TABLE derive_state ADD COLUMN alarm_settings text;
ALTER TABLE derive_state ADD COLUMN judged_from pg_snapshot;
-- Alarms are no longer left for a later pass to announce.
DROP INDEX alarm_unannounced_idx;
