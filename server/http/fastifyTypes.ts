import type { Caller } from '../auth/caller';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The action code a route needs: a code, 'NONE' (any signed-in member) or 'PUBLIC' (no sign-in).
     * Routes without one are refused, so a forgotten declaration fails closed.
     */
    permission?: string;
    /** Catalogue prefix of field labels for validation messages, e.g. `entity.vehicle.fields`. */
    labels?: string;
  }
  interface FastifyRequest {
    caller?: Caller;
  }
}
