-- Remote upgrade (0x8108): a package uploaded by an operator, kept in the database like a
-- configuration parse file's XML (scoped by its organisation, backed up with it, never in a served
-- folder; at most 8 MB), and sending it to a terminal is a command of its own, answered by 0x0108.
CREATE TABLE upgrade_package (
  id serial PRIMARY KEY,
  org_id integer NOT NULL REFERENCES organisation(id),
  file_name text NOT NULL,
  upgrade_type smallint NOT NULL CHECK (upgrade_type IN (0, 12, 52)),
  maker_id text NOT NULL,
  version text NOT NULL,
  size integer NOT NULL,
  sha256 text NOT NULL,
  content bytea NOT NULL,
  member_id integer,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX upgrade_package_org ON upgrade_package (org_id);
ALTER TABLE terminal_command DROP CONSTRAINT terminal_command_kind_check;
ALTER TABLE terminal_command ADD CONSTRAINT terminal_command_kind_check
  CHECK (kind IN ('location', 'params', 'text', 'control', 'readParams', 'attributes', 'tracking', 'vehicleControl', 'fence', 'upgrade'));
