-- Whether an alarm has been announced (console, webhooks, SMS) or may still be. A pass that stores
-- an alarm whose deciding report it cannot tell new (read beyond its own marks, or the settings
-- changed) leaves it unannounced; the pass that takes that report's marks finds it and announces
-- it, exactly once. Alarms stored before the flag were all decided upon already.
ALTER TABLE alarm ADD COLUMN announced boolean NOT NULL DEFAULT true;
CREATE INDEX alarm_unannounced_idx ON alarm (vehicle_id) WHERE NOT announced;
