import { catalogues } from '../../schemas/kit/catalogue';
import { DEFAULT_LANGUAGE, type Catalogue } from '../../schemas/kit/i18n';
import type { ResourceItem } from '../services/passport';
import type { TitleOf } from './navigation';

/**
 * Menu titles in the chosen language: a seeded menu whose server name is still the catalogue's
 * Chinese title reads `menu.<code>` of the language; a menu an administrator renamed (or added)
 * keeps the name the server gives it.
 */
export function menuTitles(messages: Catalogue): TitleOf {
  return (item: ResourceItem) => {
    const key = `menu.${item.code}`;
    return catalogues[DEFAULT_LANGUAGE][key] === item.name && messages[key] ? messages[key] : item.name;
  };
}
