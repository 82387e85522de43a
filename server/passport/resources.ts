import { sql, type Kysely } from 'kysely';
import type { Caller } from '../platform/auth/caller';
import { holdsEverything } from '../platform/auth/grants';
import type { DB } from '../platform/db/tables';
import type { ResourceItem as SharedResourceItem } from '../../schemas/kit/resourceItem';

/** Rows as the routes answer them; the tree adds `children`. */
export type ResourceItem = Required<Omit<SharedResourceItem, 'children'>>;

export async function resourcesOf(db: Kysely<DB>, application: string): Promise<ResourceItem[]> {
  return db
    .selectFrom('resource')
    .select([
      'id',
      'application',
      'name',
      'code',
      'kind',
      'path',
      'url',
      'icon',
      'sort',
      'parent_id as parentId',
      'hidden',
      'affix',
      'no_cache as noCache',
      'active_menu as activeMenu',
    ])
    .where('application', '=', application)
    .orderBy('sort')
    .orderBy('id')
    .execute();
}

/** Resources granted to the caller in an application, with the menus above them so the tree holds together. */
export async function authorizedResources(db: Kysely<DB>, caller: Caller, application: string): Promise<ResourceItem[]> {
  const all = await resourcesOf(db, application);
  if (caller.allCodes) return all;
  const granted = await db
    .selectFrom('member_role as mr')
    .innerJoin('role_resource as rr', 'rr.role_id', 'mr.role_id')
    .select('rr.resource_id')
    .distinct()
    .where('mr.member_id', '=', caller.memberId)
    .execute();
  // Actions follow the caller's codes, which an impersonation narrows to what both members hold.
  const ids = new Set(granted.map((g) => g.resource_id));
  const actionsHeld = all.filter((r) => ids.has(r.id) && (r.kind !== 'Action' || caller.codes.has(r.code)));
  return withAncestors(all, new Set(actionsHeld.map((r) => r.id)));
}

/** The rows in `ids` plus every ancestor of them. */
export function withAncestors(all: ResourceItem[], ids: Set<number>): ResourceItem[] {
  const byId = new Map(all.map((r) => [r.id, r]));
  const keep = new Set<number>();
  for (const id of ids) {
    for (let r = byId.get(id); r && !keep.has(r.id); r = r.parentId === null ? undefined : byId.get(r.parentId)) keep.add(r.id);
  }
  return all.filter((r) => keep.has(r.id));
}

/**
 * Those of `ids` a member holds (every one for an administrator of a system organisation): what
 * their roles grant, and the menus above it — the menus their own authorised tree shows them, and
 * so the ones the assignable tree offers them to grant.
 */
async function heldBy(db: Kysely<DB>, memberId: number, ids: number[]): Promise<Set<number>> {
  const m = await db
    .selectFrom('member as m')
    .innerJoin('organisation as o', 'o.id', 'm.org_id')
    .select(['m.member_type', 'o.is_system'])
    .where('m.id', '=', memberId)
    .executeTakeFirst();
  if (m && holdsEverything(m.member_type, m.is_system)) return new Set(ids);
  // Granted resources and every Menu above them (an Action above an Action is a code of its own).
  const held = await sql<{ id: number }>`
    WITH RECURSIVE up(id, parent_id) AS (
      SELECT r.id, r.parent_id FROM member_role mr JOIN role_resource rr ON rr.role_id = mr.role_id JOIN resource r ON r.id = rr.resource_id
      WHERE mr.member_id = ${memberId}
      UNION
      SELECT p.id, p.parent_id FROM resource p JOIN up ON p.id = up.parent_id WHERE p.kind = 'Menu'
    )
    SELECT id FROM up`.execute(db);
  const wanted = new Set(ids);
  return new Set(held.rows.map((h) => h.id).filter((id) => wanted.has(id)));
}

/**
 * Resource ids a caller may grant: those they hold themselves, and when acting through a simulated
 * login, those the member behind it holds too. Codes outside the grant are returned so the refusal
 * can name them.
 */
export async function ungrantable(
  db: Kysely<DB>,
  caller: Caller,
  resourceIds: number[],
): Promise<{ missing: number[]; notHeld: string[] }> {
  if (!resourceIds.length) return { missing: [], notHeld: [] };
  const rows = await db.selectFrom('resource').select(['id', 'application', 'code']).where('id', 'in', resourceIds).execute();
  const found = new Set(rows.map((r) => r.id));
  const missing = resourceIds.filter((id) => !found.has(id));
  if (caller.allCodes) return { missing, notHeld: [] };
  let held = await heldBy(db, caller.memberId, resourceIds);
  if (caller.originSessionId) {
    const origin = await db.selectFrom('session').select('member_id').where('id', '=', caller.originSessionId).executeTakeFirstOrThrow();
    const originHeld = await heldBy(db, origin.member_id, resourceIds);
    held = new Set([...held].filter((id) => originHeld.has(id)));
  }
  return { missing, notHeld: rows.filter((r) => !held.has(r.id)).map((r) => r.code) };
}

/** Whether `candidate` would be an ancestor-or-self of `id` (a cycle if made its parent). */
export async function isDescendantOrSelf(db: Kysely<DB>, id: number, candidate: number): Promise<boolean> {
  const r = await sql<{ hit: number }>`
    WITH RECURSIVE sub(id) AS (SELECT ${id}::int UNION ALL SELECT r.id FROM resource r JOIN sub ON r.parent_id = sub.id)
    SELECT 1 AS hit FROM sub WHERE id = ${candidate} LIMIT 1`.execute(db);
  return r.rows.length > 0;
}
