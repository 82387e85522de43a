/**
 * Sessions ending or changing shape (logout, password change, an account or organisation disabled
 * or moved) are announced on the bus, so every process checks the live sockets it holds against
 * the database at once. The database stays the one judge of a session (sessions.ts): the
 * announcement only says "look again".
 */

/** Why sessions may have changed (for logs; the check is the same whatever the reason). */
export type SessionChange = 'logout' | 'passwordChanged' | 'accountChanged' | 'organisationChanged';

export interface SessionTopics {
  /** Some sessions ended or now act in another scope: every process checks its live sockets again. */
  'sessions.changed': { reason: SessionChange };
}

/** Announces a change to every process (absent a bus, there is nobody to tell). */
export type AnnounceSessionChange = (reason: SessionChange) => void;
