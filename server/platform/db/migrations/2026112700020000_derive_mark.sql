-- What each store commit stored, appended and never updated (server/intelligence/pipeline.ts).
-- The marks used to be upserts into derive_state, whose rows a derivation pass holds FOR UPDATE
-- until it commits: a commit's mark then waited for the pass, and the reports it stored reached
-- the queue only after it (README, Benchmarks → Alarms). A pass now takes, under its lock on
-- derive_state, the marks of its vehicles committed when it starts (deleting them, so a rolled-back
-- pass leaves them for the next); marks committed later wait for the next pass.
CREATE TABLE derive_mark (
  vehicle_id integer NOT NULL REFERENCES vehicle(id) ON DELETE CASCADE,
  pending_from timestamptz NOT NULL,
  pending_to timestamptz NOT NULL
);
CREATE INDEX derive_mark_vehicle_idx ON derive_mark (vehicle_id);

INSERT INTO derive_mark (vehicle_id, pending_from, pending_to)
SELECT vehicle_id, pending_from, COALESCE(pending_to, pending_from) FROM derive_state WHERE pending_from IS NOT NULL;

DROP INDEX derive_state_pending_idx;
-- derived_seq now counts the passes that consumed marks (a held window serves only the pass after
-- the one that held it, in the same process).
ALTER TABLE derive_state DROP COLUMN pending_from, DROP COLUMN pending_to, DROP COLUMN pending_seq;
