-- Labels and messages analysts edit in the console (issue 17): per language and catalogue key, the
-- published text users see and a draft not yet published. An edit is published for all four
-- languages at once, so a key never shows new words in one language and old ones in another.
CREATE TABLE label_override (
  locale text NOT NULL,
  key text NOT NULL,
  published text,
  draft text,
  updated_by_name text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  published_at timestamptz,
  PRIMARY KEY (locale, key),
  CHECK (published IS NOT NULL OR draft IS NOT NULL)
);

-- Raised by every publish and reset: each server process compares it with the one it loaded, so an
-- edit reaches every process without a restart, and the catalogue's ETag changes with it.
CREATE TABLE label_version (
  id integer PRIMARY KEY CHECK (id = 1),
  version integer NOT NULL
);
INSERT INTO label_version (id, version) VALUES (1, 0);
