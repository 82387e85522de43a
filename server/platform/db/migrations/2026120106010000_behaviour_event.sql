-- Each driving event behind the safety score, with its place: rebuilt by the behaviour deriver for
-- every day a derivation window touches (like behaviour_day), so the explanation page reads rows,
-- never raw positions. Natural key (vehicle, kind, at): the same event is found again by a rebuild.
CREATE TABLE behaviour_event (
  vehicle_id integer NOT NULL REFERENCES vehicle(id) ON DELETE CASCADE,
  day date NOT NULL,
  org_id integer NOT NULL,
  -- harshAcceleration, harshBraking, sharpTurn, speeding, night, fatigue, distraction.
  kind text NOT NULL,
  -- When it began (the report that showed it; a speeding or night run's first report; an alarm's begin).
  at timestamptz NOT NULL,
  latitude double precision,
  longitude double precision,
  -- Events it stands for (a terminal's counter may rise by more than one between two reports).
  count integer NOT NULL DEFAULT 1,
  -- Seconds, for speeding and night runs (0 for the others).
  duration_s integer NOT NULL DEFAULT 0,
  -- Speeding only: light, moderate, severe (by the peak's excess over the limit).
  severity text,
  -- Speeding only: the peak speed and the limit in force there, km/h.
  peak_kmh double precision,
  limit_kmh double precision,
  -- 'terminal' (its counter or alarm bit), 'computed' (speed and heading), 'alarm' (the alarm engine).
  source text NOT NULL,
  PRIMARY KEY (vehicle_id, kind, at)
);
CREATE INDEX behaviour_event_day_idx ON behaviour_event (vehicle_id, day);
CREATE INDEX behaviour_event_org_day_idx ON behaviour_event (org_id, day);

-- What a person decided about an event: dismissed as false (it leaves the score) or coached (it
-- stays). Its own table keyed like the event, so re-derivation never deletes it; a review whose
-- event is no longer derived stays here and applies again if the event comes back.
CREATE TABLE behaviour_review (
  vehicle_id integer NOT NULL REFERENCES vehicle(id) ON DELETE CASCADE,
  kind text NOT NULL,
  at timestamptz NOT NULL,
  state text NOT NULL CHECK (state IN ('dismissed', 'coached')),
  note text NOT NULL,
  reviewed_by integer REFERENCES member(id) ON DELETE SET NULL,
  reviewed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (vehicle_id, kind, at)
);
