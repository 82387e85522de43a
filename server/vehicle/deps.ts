import type { Kysely } from 'kysely';
import type { EntityModel } from '../crud/model';

/** What the hand-written vehicle-service routes need: the database and the entity models they answer with. */
export interface VehicleDeps {
  db: Kysely<unknown>;
  model(name: string): EntityModel;
  /** Whether the app serves this entity (a trimmed registry in tests may not). */
  has(name: string): boolean;
}

export const idParam = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;
export const idParams = { type: 'object', required: ['id'], properties: { id: idParam } } as const;
