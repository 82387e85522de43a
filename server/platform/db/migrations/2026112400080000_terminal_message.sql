-- Terminal messages the gateway keeps without a table of their own: 0x0701 waybills (decoded
-- text) and vendor message ids it does not decode (kept raw), so nothing a terminal sends is lost
-- and a later decoder can read them back. `flags` names frame anomalies that were tolerated
-- (checksumMismatch, declaredLength).
CREATE TABLE terminal_message (
  id bigserial PRIMARY KEY,
  terminal_id integer NOT NULL REFERENCES terminal(id) ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT now(),
  msg_id integer NOT NULL,
  kind text NOT NULL,
  text text,
  body_hex text NOT NULL,
  flags jsonb
);
CREATE INDEX terminal_message_terminal_idx ON terminal_message (terminal_id, at DESC);
