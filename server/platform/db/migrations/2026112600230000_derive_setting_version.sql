-- What the derivers read on every pass and is rarely edited (alarm policies, fences and their links,
-- safety settings, oil prices, fuel types, organisations' paths) is held between passes in each
-- process (server/intelligence/settingsCache.ts). Every statement that changes one of these tables,
-- whoever runs it (the CRUD routes, a seed, npm run derive, SQL by hand, another process), counts
-- up that table's version here, in the same transaction; a pass reads the versions once and drops
-- what it holds when they moved, so a value is never served after its edit commits.
CREATE TABLE derive_setting_version (
  table_name text PRIMARY KEY,
  version bigint NOT NULL
);

CREATE FUNCTION derive_setting_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO derive_setting_version (table_name, version) VALUES (TG_TABLE_NAME, 1)
  ON CONFLICT (table_name) DO UPDATE SET version = derive_setting_version.version + 1;
  RETURN NULL;
END $$;

CREATE TRIGGER derive_setting_bump AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON policy FOR EACH STATEMENT EXECUTE FUNCTION derive_setting_bump();
CREATE TRIGGER derive_setting_bump AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON fence FOR EACH STATEMENT EXECUTE FUNCTION derive_setting_bump();
CREATE TRIGGER derive_setting_bump AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON vehicle_fence FOR EACH STATEMENT EXECUTE FUNCTION derive_setting_bump();
CREATE TRIGGER derive_setting_bump AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON safety_setting FOR EACH STATEMENT EXECUTE FUNCTION derive_setting_bump();
CREATE TRIGGER derive_setting_bump AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON oil_price FOR EACH STATEMENT EXECUTE FUNCTION derive_setting_bump();
CREATE TRIGGER derive_setting_bump AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON fuel_type FOR EACH STATEMENT EXECUTE FUNCTION derive_setting_bump();
CREATE TRIGGER derive_setting_bump AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON organisation FOR EACH STATEMENT EXECUTE FUNCTION derive_setting_bump();
