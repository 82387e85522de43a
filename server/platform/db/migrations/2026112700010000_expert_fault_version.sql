-- The expert fault library is read by the alarm derivation for every trouble code and held between
-- passes like the other settings (server/intelligence/settingsCache.ts): every change to it counts
-- up its version, so a pass never serves an entry after its edit commits.
CREATE TRIGGER derive_setting_bump AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON expert_fault FOR EACH STATEMENT EXECUTE FUNCTION derive_setting_bump();
