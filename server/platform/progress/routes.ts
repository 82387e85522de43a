import type { FastifyInstance } from 'fastify';
import { NONE } from '../../../schemas/kit/authority';
import { callerOf } from '../auth/authenticate';
import { AppError } from '../http/errors';
import { typed } from '../http/typed';
import { ProgressBoard, type ProgressView } from './board';
import { progressIdSchema } from './track';

const params = { type: 'object', required: ['id'], additionalProperties: false, properties: { id: progressIdSchema } } as const;
const view = {
  type: 'object',
  additionalProperties: false,
  properties: {
    phase: { enum: ['read', 'check', 'write', 'store'] },
    done: { type: 'integer' },
    total: { type: ['integer', 'null'] },
    state: { enum: ['waiting', 'running', 'done', 'cancelled', 'failed'] },
  },
} as const;

const known = (v: ProgressView | undefined): ProgressView => {
  if (!v) throw new AppError(404, 'progress.unknown');
  return v;
};

/**
 * `GET /api/vehicle/progress/{id}`: how far the caller's export or import sent with that id has
 * come (`waiting` until the request reaches this server); `DELETE` the same cancels it and answers
 * its state afterwards (`done` when it finished first). Only the member who sent the id sees it:
 * another's id reads as waiting, and cancelling it is 404.
 */
export function registerProgressRoutes(fastify: FastifyInstance): void {
  const app = typed(fastify);
  const board = new ProgressBoard();
  app.decorate('progressBoard', board);
  const schema = { tags: ['progress'], params, response: { 200: view } } as const;
  app.get(
    '/api/vehicle/progress/:id',
    { config: { permission: NONE }, schema: { ...schema, summary: 'rows so far of an export or import' } },
    async (req) => board.view(callerOf(req).memberId, req.params.id),
  );
  app.delete(
    '/api/vehicle/progress/:id',
    { config: { permission: NONE }, schema: { ...schema, summary: 'cancel an export or import' } },
    async (req) => known(board.cancel(callerOf(req).memberId, req.params.id)),
  );
}
