import { sql } from 'kysely';
import { schemaEntities, type SchemaName } from '../../../schemas/generated/registry';
import { columnOf } from '../../../schemas/kit/entity';
import { AppError } from '../http/errors';
import type { EntityModel } from './model';

/**
 * The options route's `unusedBy=<entity>.<property>`: only rows of `target` that no row of that
 * entity references through that property (the add-vehicle form offers free terminals only). Only a
 * relation to `target` marked `x-ref.free` is accepted, so the query names no arbitrary table.
 */
export function unusedByCondition(target: EntityModel, unusedBy: string) {
  const [entity, prop] = unusedBy.split('.');
  const schema = Object.hasOwn(schemaEntities, entity) ? schemaEntities[entity as SchemaName] : undefined;
  const p = schema && Object.hasOwn(schema.properties, prop) ? schema.properties[prop] : undefined;
  const ref = p?.['x-ref'];
  if (!schema || !p || !ref?.free || ref.entity !== target.name) throw new AppError(400, 'error.unusedByInvalid', { unusedBy });
  return sql`NOT EXISTS (SELECT 1 FROM ${sql.table(schema['x-entity'].table)} u WHERE ${sql.ref(`u.${columnOf(prop, p)}`)} = t.id)`;
}
