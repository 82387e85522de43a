import { catalogues } from '../../schemas/kit/catalogueStore';
import { DEFAULT_LANGUAGE, type Catalogue } from '../../schemas/kit/i18n';
import { schemaPageEntities } from '../pages/schemaPages.generated';
import type { ResourceItem } from '../services/passport';
import type { TitleOf } from './navigation';

/** The catalogue key naming a menu item: `menu.<code>`, or, for a schema page without one, its entity's title. */
function titleKey(item: ResourceItem): string | null {
  const key = `menu.${item.code}`;
  if (catalogues[DEFAULT_LANGUAGE][key] !== undefined) return key;
  const entity = item.url ? schemaPageEntities[item.url] : undefined;
  return entity ? `entity.${entity}.title` : null;
}

/**
 * Menu titles in the chosen language: a seeded menu whose server name is still the catalogue's
 * Chinese title reads `menu.<code>` of the language (a schema page's menu, which has no such key,
 * its entity's title); a menu an administrator renamed (or added) keeps the name the server gives it.
 */
export function menuTitles(messages: Catalogue): TitleOf {
  return (item: ResourceItem) => {
    const key = titleKey(item);
    return key && catalogues[DEFAULT_LANGUAGE][key] === item.name && messages[key] ? messages[key] : item.name;
  };
}
