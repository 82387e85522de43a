-- Driver identity from the IC card reader (JT/T 808 0x0702). A driver's card number is the
-- qualification certificate number the card carries: a card event names it, and the driver of the
-- vehicle's organisation (or the nearest above it) holding that number is the one it identifies.
ALTER TABLE driver ADD COLUMN card_no text;
CREATE UNIQUE INDEX driver_org_id_card_no_key ON driver (org_id, card_no);
CREATE INDEX driver_card_no_idx ON driver (card_no) WHERE card_no IS NOT NULL;

-- Each card inserted into or removed from a vehicle's reader, by the device's time. Driver sessions
-- are paired from these in device-time order when read (server/drivers/sessions.ts), so a late or
-- blind-area upload changes nothing but its own place in the order. A terminal sending an event
-- again after a lost answer adds nothing (the unique key).
CREATE TABLE driver_card_event (
  id bigserial PRIMARY KEY,
  terminal_id integer NOT NULL REFERENCES terminal(id) ON DELETE CASCADE,
  -- The vehicle the terminal was bound to when it reported.
  vehicle_id integer NOT NULL REFERENCES vehicle(id) ON DELETE CASCADE,
  at timestamptz NOT NULL,
  -- 'in' or 'out'.
  action text NOT NULL,
  -- In only: the certificate number read from the card (null when the card could not be read).
  card_no text,
  -- In only: the reader's result (0 read, 1 key refused, 2 card locked, 3 card pulled, 4 checksum error).
  read_result smallint,
  holder_name text,
  issuer text,
  id_number text,
  received_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX driver_card_event_key ON driver_card_event (vehicle_id, at, action, (coalesce(card_no, '')));
CREATE INDEX driver_card_event_vehicle_at_idx ON driver_card_event (vehicle_id, at);
CREATE INDEX driver_card_event_card_idx ON driver_card_event (card_no) WHERE card_no IS NOT NULL;
