import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../platform/db/tables';
import { MENUS, resourceFields, type ResourceFixture } from './menu';

/**
 * Makes sure every seeded resource exists (matched by application and code), on every start: a new
 * release's menus and action codes appear, and what administrators changed is left alone.
 */
export async function syncResources(db: Kysely<DB> | Transaction<DB>): Promise<number> {
  let added = 0;
  for (const [application, tree] of Object.entries(MENUS)) {
    const existing = new Map(
      (await db.selectFrom('resource').select(['id', 'code']).where('application', '=', application).execute()).map((r) => [r.code, r.id]),
    );
    const walk = async (items: ResourceFixture[], parentId: number | null): Promise<void> => {
      for (const [i, r] of items.entries()) {
        let id = existing.get(r.code);
        if (id === undefined) {
          const { noCache, activeMenu, ...fields } = resourceFields(r);
          const row = await db
            .insertInto('resource')
            .values({ application, ...fields, no_cache: noCache, active_menu: activeMenu, sort: (i + 1) * 10, parent_id: parentId })
            .returning('id')
            .executeTakeFirstOrThrow();
          id = row.id;
          added++;
        }
        await walk(r.children ?? [], id);
      }
    };
    await walk(tree, null);
  }
  return added;
}
