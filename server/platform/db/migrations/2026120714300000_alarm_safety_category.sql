-- Active safety alarms (苏标 0x0200 items 0x64–0x67: forward collision, lane departure, fatigue,
-- phone use, tyres, blind spot…) have a category of their own in the alarm centre.
ALTER TABLE alarm DROP CONSTRAINT alarm_category_check;
ALTER TABLE alarm ADD CONSTRAINT alarm_category_check CHECK (category IN ('terminal', 'fence', 'ai', 'obd', 'safety'));
