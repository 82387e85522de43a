import type { Kysely } from 'kysely';
import type { EntityModel } from '../platform/crud/model';
import type { DB } from '../platform/db/tables';

/** What the hand-written vehicle-service routes need: the database and the entity models they answer with. */
export interface VehicleDeps {
  db: Kysely<DB>;
  model(name: string): EntityModel;
  /** Whether the app serves this entity (a trimmed registry in tests may not). */
  has(name: string): boolean;
}

export { idParam, idParams, rowAnswer, type IdParams } from '../platform/crud/routeSpec';
