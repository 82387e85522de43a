-- One identity per device (issue 39, finding 1). A terminal's number and its SIM both name it on
-- the wire (the JT/T 808 header phone, zero-padded), so each of them, leading zeros ignored, may
-- belong to one terminal only, across both columns and every organisation. The gateway finds a
-- terminal by this table alone. The per-column unique indexes go: their answers named the column
-- another organisation's row used ("SIM 卡号已存在"); one clash answer now says nothing of where.

-- The rule of schemas/kit/entity.ts deviceIdentity, in SQL (a test checks both agree).
CREATE FUNCTION terminal_identity_of(v text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT COALESCE(NULLIF(ltrim(v, '0'), ''), '0')
$$;

CREATE TABLE terminal_identity (
  identity text PRIMARY KEY,
  terminal_id integer NOT NULL REFERENCES terminal(id) ON DELETE CASCADE
);
CREATE INDEX terminal_identity_terminal_id_idx ON terminal_identity (terminal_id);

-- Existing clashes: an identity stays with the terminal that held it first (the lowest id: the
-- row created first; a later row naming another's SIM is the takeover this prevents). The other
-- terminal keeps its row and its other identity, is never matched by the clashing one, and the
-- clash is in its organisation's audit log; changing its number or SIM claims a free identity.
INSERT INTO terminal_identity (identity, terminal_id)
SELECT DISTINCT ON (identity) identity, id
FROM (SELECT id, terminal_identity_of(terminal_no) AS identity FROM terminal
      UNION SELECT id, terminal_identity_of(sim) FROM terminal) AS claimed
ORDER BY identity, id;

INSERT INTO audit_log (member_id, member_name, org_id, action, target, success, detail)
SELECT NULL, NULL, t.org_id, 'terminalIdentityClash', t.terminal_no, false, jsonb_build_object('identity', c.identity)::text
FROM terminal t
JOIN LATERAL (VALUES (terminal_identity_of(t.terminal_no)), (terminal_identity_of(t.sim))) AS c(identity) ON true
WHERE NOT EXISTS (SELECT 1 FROM terminal_identity i WHERE i.identity = c.identity AND i.terminal_id = t.id)
GROUP BY t.id, t.org_id, t.terminal_no, c.identity;

-- Identities the terminal's row no longer names are given up, unless the terminal is registered:
-- a device that registered under an identity keeps it (and stays that terminal) until its
-- registration is reset (the gateway's resetRegistration calls this) or the terminal is deleted.
CREATE FUNCTION terminal_identity_release(tid integer) RETURNS void LANGUAGE sql AS $$
  DELETE FROM terminal_identity i USING terminal t
  WHERE i.terminal_id = tid AND t.id = tid
    AND i.identity NOT IN (terminal_identity_of(t.terminal_no), terminal_identity_of(t.sim))
    AND NOT EXISTS (SELECT 1 FROM terminal_link l WHERE l.terminal_id = tid AND l.auth_code IS NOT NULL)
$$;

-- A new row claims both identities; a changed column claims its new one (an unchanged column
-- claims nothing, so a terminal left without a clashing identity can still be edited). A claim
-- held by another terminal fails with terminal_identity_pkey: 406.
CREATE FUNCTION terminal_identity_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  claim text;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM terminal_identity_release(NEW.id);
  END IF;
  FOR claim IN
    SELECT DISTINCT terminal_identity_of(v) FROM (VALUES
      (CASE WHEN TG_OP = 'INSERT' OR OLD.terminal_no IS DISTINCT FROM NEW.terminal_no THEN NEW.terminal_no END),
      (CASE WHEN TG_OP = 'INSERT' OR OLD.sim IS DISTINCT FROM NEW.sim THEN NEW.sim END)) AS c(v)
    WHERE v IS NOT NULL
  LOOP
    IF NOT EXISTS (SELECT 1 FROM terminal_identity WHERE identity = claim AND terminal_id = NEW.id) THEN
      INSERT INTO terminal_identity (identity, terminal_id) VALUES (claim, NEW.id);
    END IF;
  END LOOP;
  RETURN NULL;
END
$$;
CREATE TRIGGER terminal_identity_sync AFTER INSERT OR UPDATE OF terminal_no, sim ON terminal
  FOR EACH ROW EXECUTE FUNCTION terminal_identity_sync();

DROP INDEX terminal_terminal_no_key;
DROP INDEX terminal_sim_key;
-- Still looked up by number (renewal by spreadsheet, the console's search).
CREATE INDEX terminal_terminal_no_idx ON terminal (terminal_no);
