-- Photos, audio and video terminals upload (0x0801). The file is kept once under DATA_DIR/media,
-- named by its SHA-256; a row per upload names it with what the terminal said of it (its media id,
-- type, format, event, channel, where and when). Served only within the vehicle's organisation
-- subtree, through vehicle_id (the vehicle the terminal was bound to when it uploaded).
CREATE TABLE media (
  id bigserial PRIMARY KEY,
  terminal_id integer NOT NULL REFERENCES terminal(id) ON DELETE CASCADE,
  vehicle_id integer REFERENCES vehicle(id) ON DELETE SET NULL,
  media_id bigint NOT NULL,
  type smallint NOT NULL,
  format smallint NOT NULL,
  event smallint NOT NULL,
  channel smallint NOT NULL,
  latitude double precision,
  longitude double precision,
  taken_at timestamptz,
  received_at timestamptz NOT NULL DEFAULT now(),
  sha256 text NOT NULL,
  bytes integer NOT NULL,
  -- A terminal resending the same media after a lost answer adds nothing.
  UNIQUE (terminal_id, media_id, sha256)
);
CREATE INDEX media_vehicle_idx ON media (vehicle_id, received_at DESC);
