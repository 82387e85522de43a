-- Terminal registration bound to hardware (issue 18, finding 1).
-- auth_code NULL: not registered (never, or reset by an operator); the next 0x0100 registers.
-- The hardware a terminal sent when it first registered (0x0100 maker id, model, terminal id, the
-- body layout) and, with 2019, the IMEI of its first authentication: later registrations and
-- authentications from other hardware are refused.
ALTER TABLE terminal_link ALTER COLUMN auth_code DROP NOT NULL;
ALTER TABLE terminal_link ADD COLUMN maker_id text;
ALTER TABLE terminal_link ADD COLUMN model text;
ALTER TABLE terminal_link ADD COLUMN device_id text;
ALTER TABLE terminal_link ADD COLUMN layout integer;
ALTER TABLE terminal_link ADD COLUMN imei text;
ALTER TABLE terminal_link ADD COLUMN reset_at timestamptz;

-- The last refused registrations and authentications per terminal (pruned to a few per terminal),
-- shown on the terminal so an operator sees an impersonation attempt.
CREATE TABLE terminal_refusal (
  id bigserial PRIMARY KEY,
  terminal_id integer NOT NULL REFERENCES terminal(id) ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT now(),
  message text NOT NULL,
  reason text NOT NULL,
  remote_address text,
  -- Attempts of the same kind not recorded one by one (throttled) since the previous row.
  suppressed integer NOT NULL DEFAULT 0,
  detail jsonb
);
CREATE INDEX terminal_refusal_terminal_idx ON terminal_refusal (terminal_id, at DESC);
