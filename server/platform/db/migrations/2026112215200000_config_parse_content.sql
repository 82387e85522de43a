-- The XML of a configuration parse file, kept in the database beside its row: it is deleted with
-- the row, backed up with it, scoped by it, the same on PGlite and PostgreSQL, and never lies in
-- any folder a web server could serve. Uploads are capped at 1 MB.
CREATE TABLE config_parse_content (
  file_id integer PRIMARY KEY REFERENCES config_parse_file(id) ON DELETE CASCADE,
  content bytea NOT NULL,
  sha256 text NOT NULL,
  uploaded_at timestamptz NOT NULL DEFAULT now()
);
