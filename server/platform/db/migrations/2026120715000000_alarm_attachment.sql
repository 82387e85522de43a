-- Active safety evidence (苏标 attachment service). A request is the platform's 0x9208 for one alarm
-- identification of one terminal, named by a unique alarm number the terminal quotes back on the
-- attachment link; each whole file it uploads is kept once in the media store (DATA_DIR/media, by
-- SHA-256) with a row here. Files reach an alarm through (vehicle_id, alarm_key): the key the
-- alarm deriver writes into the alarm's subject and detail (terminal id, alarm time, sequence).
CREATE TABLE attachment_request (
  id bigserial PRIMARY KEY,
  alarm_number text NOT NULL UNIQUE,
  terminal_id integer NOT NULL REFERENCES terminal(id) ON DELETE CASCADE,
  vehicle_id integer REFERENCES vehicle(id) ON DELETE SET NULL,
  alarm_key text NOT NULL,
  standard text NOT NULL CHECK (standard IN ('jsatl12', 'guangdong')),
  attachments smallint NOT NULL,
  requested_at timestamptz NOT NULL DEFAULT now(),
  -- When every file the terminal listed was whole and kept.
  completed_at timestamptz
);
-- One request per alarm identification of a terminal: a report sent again asks again under its number.
CREATE UNIQUE INDEX attachment_request_key_idx ON attachment_request (terminal_id, alarm_key);

CREATE TABLE alarm_attachment (
  id bigserial PRIMARY KEY,
  request_id bigint NOT NULL REFERENCES attachment_request(id) ON DELETE CASCADE,
  terminal_id integer NOT NULL REFERENCES terminal(id) ON DELETE CASCADE,
  vehicle_id integer REFERENCES vehicle(id) ON DELETE SET NULL,
  alarm_key text NOT NULL,
  -- As the terminal named it (file type _ channel _ alarm type _ sequence _ alarm number . suffix).
  file_name text NOT NULL,
  -- 0 picture, 1 audio, 2 video, 3 text, 4 other.
  file_type smallint NOT NULL,
  sha256 text NOT NULL,
  bytes bigint NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (request_id, file_name)
);
CREATE INDEX alarm_attachment_key_idx ON alarm_attachment (vehicle_id, alarm_key);
