import type { Kysely } from 'kysely';
import type { EntityModel } from '../crud/model';

/** What the hand-written vehicle-service routes need: the database and the entity models they answer with. */
export interface VehicleDeps {
  db: Kysely<unknown>;
  model(name: string): EntityModel;
  /** Whether the app serves this entity (a trimmed registry in tests may not). */
  has(name: string): boolean;
}

export { idParam, idParams } from '../crud/routeSpec';
