-- Forwarding links managed from the console (`updated_at`), and what a JT/T 809 link could not
-- send kept in the database so it survives a restart: `forward_backlog` holds a link's unsent
-- messages in the order they were queued (`id`), at most the link's `backlog_limit` of them (the
-- oldest dropped and added to `backlog_dropped`), sent in order when the link is up again and
-- deleted with the link.
ALTER TABLE forward_link ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE forward_link ADD COLUMN backlog_dropped bigint NOT NULL DEFAULT 0;
CREATE TABLE forward_backlog (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  link_id integer NOT NULL REFERENCES forward_link(id) ON DELETE CASCADE,
  msg_id integer NOT NULL,
  kind text NOT NULL,
  body bytea NOT NULL
);
CREATE INDEX forward_backlog_link_idx ON forward_backlog (link_id, id);
