import type { EntitySchema } from '../../../schemas/kit/entity';

/** The property naming a row's parent in a tree of one entity: the one whose `x-ref` is the entity itself. */
export function treeParent(schema: EntitySchema): string {
  const own = schema['x-entity'].name;
  const found = Object.entries(schema.properties).find(([, p]) => p['x-ref']?.entity === own);
  if (!found) throw new Error(`${own} has no property referring to itself: it cannot be shown as a tree`);
  return found[0];
}
