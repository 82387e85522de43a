import { baseType, type EntitySchema, type PropertySchema } from '../../../schemas/kit/entity';

/** Catalogue keys of an entity's labels (schemas/locales/<lang>/entities/<entity>.json via the catalogue). */
export const titleKey = (entity: string) => `entity.${entity}.title`;
/** One record of the entity ("车辆" where the page is "车辆管理"); the title where no `item` is written. */
export const itemTitle = (t: (key: string) => string, entity: string) => {
  const item = t(`entity.${entity}.item`);
  return item === `entity.${entity}.item` ? t(titleKey(entity)) : item;
};
export const fieldsPrefix = (entity: string) => `entity.${entity}.fields`;
export const fieldLabelKey = (entity: string, prop: string) => `${fieldsPrefix(entity)}.${prop}`;
export const enumLabelKey = (entity: string, prop: string, value: string | number | boolean) =>
  `entity.${entity}.enums.${prop}.${String(value)}`;

export { baseType };

export const isNumeric = (p: PropertySchema) => baseType(p) === 'integer' || baseType(p) === 'number';
export const isDateTime = (p: PropertySchema) => p.format === 'date-time';
export const isDate = (p: PropertySchema) => p.format === 'date';

/** Enum values without the null an optional property admits. */
export const enumValues = (p: PropertySchema) => (p.enum ?? []).filter((v): v is string | number | boolean => v !== null);

/** Properties in display order: `x-ui.order` ascending, then as written. */
export function orderedProperties(schema: EntitySchema): Array<[string, PropertySchema]> {
  const entries = Object.entries(schema.properties);
  const pos = new Map(entries.map(([n], i) => [n, i]));
  const order = (p: PropertySchema) => p['x-ui']?.order ?? 500;
  return entries.sort(([a, pa], [b, pb]) => order(pa) - order(pb) || pos.get(a)! - pos.get(b)!);
}

/** Relation label properties (`x-ref.as`): read-only companions of a relation, shown through it. */
export function relationLabels(schema: EntitySchema): Set<string> {
  return new Set(
    Object.values(schema.properties)
      .map((p) => p['x-ref']?.as)
      .filter((x): x is string => !!x),
  );
}
