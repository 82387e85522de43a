import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { SUGGEST_QUERY, terminalSuggestionSchema, type TerminalSuggestion } from '../../schemas/kit/terminalSuggestion';
import { callerOf } from '../platform/auth/authenticate';
import { likePattern } from '../platform/crud/query';
import { notFound } from '../platform/http/errors';
import { typed } from '../platform/http/typed';
import type { VehicleDeps } from './deps';
import { orgUnder, pathUnder } from '../platform/scope';

// Text outside SUGGEST_QUERY can match no terminal: it is refused in words instead of searched.
const queryMessage = {
  required: 'vehicle.suggestQuery',
  minLength: 'vehicle.suggestQuery',
  maxLength: 'vehicle.suggestQuery',
  pattern: 'vehicle.suggestQuery',
};

const params = {
  type: 'object',
  required: ['orgId', 'q'],
  properties: {
    orgId: { type: 'integer', minimum: 0, maximum: 2147483647 },
    q: { type: 'string', ...SUGGEST_QUERY, 'x-messages': queryMessage },
  },
} as const;

const querystring = {
  type: 'object',
  additionalProperties: false,
  properties: {
    /** Only terminals no vehicle uses (what binding needs); `false` lists bound ones too, with their vehicle. */
    free: { type: 'boolean', default: true },
    limit: { type: 'integer', minimum: 1, maximum: 50, default: 20 },
  },
} as const;

/**
 * SPEC §7 `GET device/terminal/suggest/vendee-{x}/{q}`: terminals whose number or SIM contains `q`
 * (those starting with it first), for the bind dialog's searchable select.
 *
 * `vendee-{x}`: the vendee is the organisation the terminals were delivered to — `x` is its id, and
 * the suggestions are the terminals of that organisation and everything below it; `vendee-0` means
 * the caller's own organisation. An organisation outside the caller's subtree answers 404, like any
 * row the caller cannot see. Binding is what the list is for, so the code is `vehicle-bind`.
 */
export function registerSuggestRoutes(fastify: FastifyInstance, { db, model }: VehicleDeps): void {
  const app = typed(fastify);
  const terminals = model('terminal');
  app.get(
    '/api/vehicle/device/terminal/suggest/vendee-:orgId/:q',
    {
      config: { permission: 'vehicle-bind', labels: terminals.labelPrefix },
      schema: {
        tags: ['terminal'],
        summary: 'suggest terminals by number or SIM',
        params,
        querystring,
        response: { 200: { type: 'array', items: terminalSuggestionSchema } },
      },
    },
    async (req): Promise<TerminalSuggestion[]> => {
      const caller = callerOf(req);
      const { orgId, q } = req.params;
      const { free, limit } = req.query;
      const org = await sql<{
        path: string;
      }>`SELECT path FROM organisation WHERE id = ${orgId || caller.orgId} AND ${pathUnder('path', caller.orgPath)}`.execute(db);
      if (!org.rows.length) throw notFound();
      const contains = likePattern(q);
      const starts = contains.slice(1);
      const r = await sql<TerminalSuggestion>`
        SELECT t.id AS value, t.terminal_no AS label, t.terminal_no AS "terminalNo", t.sim, v.licence
        FROM terminal t LEFT JOIN vehicle v ON v.terminal_id = t.id
        WHERE ${orgUnder('t.org_id', org.rows[0].path)}
          AND (t.terminal_no ILIKE ${contains} OR t.sim LIKE ${contains})
          ${free ? sql`AND v.id IS NULL` : sql``}
        ORDER BY (t.terminal_no ILIKE ${starts} OR t.sim LIKE ${starts}) DESC, t.terminal_no, t.id
        LIMIT ${limit}`.execute(db);
      return r.rows;
    },
  );
}
