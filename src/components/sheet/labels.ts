import type { Translate } from '../../../schemas/kit/i18n';

/** Catalogue keys of an entity's labels (`entity.<name>.…`), built without template keys. */
const entityKey = (entity: string, ...rest: string[]) => ['entity', entity, ...rest].join('.');

export const entityTitle = (t: Translate, entity: string): string => t(entityKey(entity, 'title'));

/** A field's label, or its name when the catalogue has none (a message never shows a raw key). */
export function fieldLabel(t: Translate, entity: string, field: string): string {
  const key = entityKey(entity, 'fields', field);
  const label = t(key);
  return label === key ? field : label;
}
