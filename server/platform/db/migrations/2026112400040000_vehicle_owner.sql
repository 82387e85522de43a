-- SPEC §7 PUT vehicle/{a}/{b}: a vehicle's app-account owner (a member of the vehicle-app
-- application), who sees it in the app. Unset when the member goes.
ALTER TABLE vehicle ADD COLUMN owner_member_id integer REFERENCES member(id) ON DELETE SET NULL;
CREATE INDEX vehicle_owner_member_id_idx ON vehicle (owner_member_id) WHERE owner_member_id IS NOT NULL;
