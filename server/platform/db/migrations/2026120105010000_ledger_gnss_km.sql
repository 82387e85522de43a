-- Where a ledger day's distance came from: the part of mileage_km its trips measured from the
-- filtered GNSS track (no odometer, or one that ran backwards, too fast or froze); the rest came
-- from the odometer (server/intelligence/trips/metrics.ts). Days derived before read 0 until their
-- windows are derived again.
ALTER TABLE ledger_day ADD COLUMN gnss_km float8 NOT NULL DEFAULT 0;
