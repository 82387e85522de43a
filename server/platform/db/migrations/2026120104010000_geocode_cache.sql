-- Addresses a reverse-geocoding provider answered, by position rounded to 1e-4 degree (about 11 m)
-- and language, so a place is asked of the provider once. The provider and the time say where an
-- address came from and how old it is.
CREATE TABLE geocode_cache (
  lat_e4 integer NOT NULL,
  lng_e4 integer NOT NULL,
  lang text NOT NULL,
  address text NOT NULL,
  provider text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (lat_e4, lng_e4, lang)
);
