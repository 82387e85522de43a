/**
 * The organisation-subtree rule, the product's central security rule, written once: a member sees
 * its own organisation and everything below it. An organisation's `path` lists its ancestors' ids
 * and its own ('/1/4/'), so the subtree of a path is every path that starts with it.
 */
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';

/** A root given as a path ('/1/4/') or as an SQL expression yielding one (e.g. a sub-select). */
export type RootPath = string | Expression<string | null>;

/** Whether `path` lies in the subtree of `root` (both organisation paths), in memory. */
export const pathInSubtree = (root: string, path: string): boolean => path.startsWith(root);

/** The LIKE pattern of a subtree: paths are digits and slashes, so nothing needs escaping. */
const pattern = (root: RootPath) => (typeof root === 'string' ? sql`${root + '%'}` : sql`${root} || '%'`);

/**
 * SQL (usable in `sql` templates and as a Kysely `where`): the organisation path in `column` lies in
 * the subtree of `root`, e.g. `.where(pathUnder('o.path', caller.orgPath))`.
 */
export const pathUnder = (column: string, root: RootPath): RawBuilder<SqlBool> => sql<SqlBool>`${sql.ref(column)} LIKE ${pattern(root)}`;

/** SQL: the ids of the organisations in the subtree of `root`, computed once per statement (an init plan). */
export const subtreeOrgIds = (root: RootPath): RawBuilder<number[]> =>
  sql<number[]>`ARRAY(SELECT id FROM organisation WHERE ${pathUnder('path', root)})`;

/** SQL: the organisation id in `column` belongs to the subtree of `root` (for org-scoped rows). */
export const orgUnder = (column: string, root: RootPath): RawBuilder<SqlBool> =>
  sql<SqlBool>`${sql.ref(column)} = ANY (${subtreeOrgIds(root)})`;

/** SQL: the path of the organisation with this id (a root for the helpers above). */
export const pathOfOrg = (orgId: number | Expression<number>): RawBuilder<string> =>
  sql<string>`(SELECT path FROM organisation WHERE id = ${orgId})`;

/**
 * SQL: the organisation path in `ancestorColumn` is `path` itself or one of its ancestors (for
 * nearest-ancestor rules: policies, prices, settings), e.g. `pathAbove('o.path', vehicle.orgPath)`.
 */
export const pathAbove = (ancestorColumn: string, path: RootPath): RawBuilder<SqlBool> =>
  sql<SqlBool>`${typeof path === 'string' ? sql`${path}` : path} LIKE ${sql.ref(ancestorColumn)} || '%'`;
