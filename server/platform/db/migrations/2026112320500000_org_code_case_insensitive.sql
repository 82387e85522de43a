-- Organisation codes are compared without case: "hd-sh" beside "HD-SH" is the same code.
-- Same index name, so the duplicate mapping and its message stay as they were.
DROP INDEX IF EXISTS organisation_code_key;
CREATE UNIQUE INDEX organisation_code_key ON organisation (lower(code));
