import { HEADER } from './header';
import type { SchemaFile } from './readSchemas';

/**
 * The console's schema pages by page key (`x-entity.page.key`): each loads the generic entity page
 * on first visit, so a new schema gets its page without a hand edit.
 */
export function pagesFile(files: SchemaFile[]): string {
  const withPage = files
    .filter((f) => f.schema['x-entity'].page)
    .sort((a, b) => a.schema['x-entity'].page!.key.localeCompare(b.schema['x-entity'].page!.key));
  const lines = [
    HEADER('the `x-entity.page` keys of schemas/*.schema.json'),
    `import type { EntityName } from '../../schemas/generated/registry';`,
    `import type { PageLoader, PageLoaders } from './pageModule';`,
    '',
    `/** Page key → the entity its generic page shows. */`,
    `export const schemaPageEntities: Readonly<Record<string, EntityName>> = {`,
    ...withPage.map((f) => `  '${f.schema['x-entity'].page!.key}': '${f.name}',`),
    `};`,
    '',
    `const entityPageOf =`,
    `  (entity: EntityName): PageLoader =>`,
    `  () =>`,
    `    import('../components/schema/EntityPage').then((m) => ({ default: m.entityPage(entity) }));`,
    '',
    `export const generatedSchemaPages: PageLoaders = Object.fromEntries(Object.entries(schemaPageEntities).map(([key, entity]) => [key, entityPageOf(entity)]));`,
  ];
  return lines.join('\n') + '\n';
}
