/**
 * Forwarding links changed (created, edited, enabled or disabled, deleted): announced on the bus so
 * every process running links reads `forward_link` again at once, without a restart. The table
 * stays the one source of a link's settings: the announcement only says "read it again".
 */

export interface ForwardTopics {
  /** A link's row changed (its id); every process running forwarding reloads its links. */
  'forwarding.changed': { linkId: number };
}

/** Announces a changed link to every process (absent a bus, there is nobody to tell). */
export type AnnounceForwardChange = (linkId: number) => void;
