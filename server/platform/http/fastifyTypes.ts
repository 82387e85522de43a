import type { Caller } from '../auth/caller';

/** A permission that depends on the application a call is about (`x-application-code`). */
export type PerApplication = Record<string, string>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The action code a route needs: a code, 'NONE' (any signed-in member) or 'PUBLIC' (no sign-in),
     * or one code per application code. Routes without one are refused, so a forgotten
     * declaration fails closed.
     */
    permission?: string | PerApplication;
    /** Open to a weak-password session (which may do nothing but change its password). */
    passwordScope?: boolean;
    /** Catalogue prefix of field labels for validation messages, e.g. `entity.vehicle.fields`. */
    labels?: string;
    /**
     * Writes data shared by every organisation (`x-entity.shared`, the menu tree): only members of a
     * system organisation may call it, whatever codes others hold.
     */
    sharedWrite?: boolean;
    /** Only for a person signed in (password, own profile, sessions, API keys): an API key is refused with 403. */
    personOnly?: boolean;
  }
  interface FastifyRequest {
    caller?: Caller;
  }
}
