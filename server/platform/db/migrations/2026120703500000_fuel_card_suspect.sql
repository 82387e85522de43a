-- A FuelCardSuspect alarm is raised once per fuel card transaction (subject `fuelCard:<id>`), by the
-- maintenance clock (server/maintenance/fuelCardMatch.ts).
CREATE UNIQUE INDEX alarm_fuel_card_once ON alarm (vehicle_id, type, subject) WHERE type = 'FuelCardSuspect';
-- Transactions still to settle, and the refuel each settled one was matched to.
CREATE INDEX IF NOT EXISTS fuel_card_transaction_match_status_idx ON fuel_card_transaction (match_status) WHERE match_status = 'pending';
