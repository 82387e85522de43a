import { sql, type Kysely } from 'kysely';
import { schemaEntities } from '../../schemas/generated/registry';
import { columnOf } from '../../schemas/kit/entity';
import type { DB } from '../platform/db/tables';

/**
 * What an audit row's `target` points at, so the log can name it instead of showing an id: the kind
 * of thing (an entity name: member, role, organisation, resource, terminal, vehicle…) and its key
 * (an id, an organisation code, `application:code` of a resource, a terminal number).
 */
export interface TargetRef {
  kind: string;
  key: string;
  /** The key is already what a person reads (a terminal number): nothing to look up. */
  readable?: boolean;
}

const MEMBER_ACTIONS = new Set(['memberRegister', 'memberUpdate', 'passwordReset', 'memberUnlock', 'simulateLogin']);
const ROLE_ACTIONS = new Set(['roleCreate', 'roleUpdate', 'roleDelete', 'roleAuthorize']);
const ORG_ACTIONS = new Set(['orgCreate', 'orgUpdate', 'orgDelete']);
const RESOURCE_ACTIONS = new Set(['resourceCreate', 'resourceUpdate', 'resourceDelete']);
const TERMINAL_ACTIONS = new Set([
  'terminalRefused',
  'terminalSessionReplaced',
  'terminalResetRegistration',
  'terminalIdentityClash',
  'terminalCommand',
]);

/** The thing an action's target names, read from how each action writes it (see the auditRequest calls). */
export function targetRef(action: string, target: string | null): TargetRef | null {
  if (!target) return null;
  if (MEMBER_ACTIONS.has(action) && /^\d+$/.test(target)) return { kind: 'member', key: target };
  if (ROLE_ACTIONS.has(action) && /^\d+$/.test(target)) return { kind: 'role', key: target };
  if (ORG_ACTIONS.has(action)) return { kind: 'organisation', key: target };
  if (RESOURCE_ACTIONS.has(action)) return { kind: 'resource', key: target };
  if (TERMINAL_ACTIONS.has(action)) return { kind: 'terminal', key: target, readable: true };
  if (action === 'loginFailed') return { kind: 'member', key: target };
  const m = /^([a-zA-Z]+):(\d+)$/.exec(target);
  return m && m[1] in schemaEntities ? { kind: m[1], key: m[2] } : null;
}

const ids = (keys: string[]) => keys.filter((k) => /^\d+$/.test(k)).map(Number);

/** The readable names of one kind's keys (key → name); keys whose row is gone are left out. */
async function namesOf(db: Kysely<DB>, kind: string, keys: string[]): Promise<Map<string, string>> {
  const rows = async (q: Promise<Array<{ key: string | number; name: string | null }>>) =>
    new Map((await q).filter((r) => r.name !== null).map((r) => [String(r.key), r.name as string]));
  switch (kind) {
    case 'member': {
      // Failed logins keep the login name typed (no id); the others an id.
      const byId = ids(keys).length
        ? await rows(db.selectFrom('member').select(['id as key', 'name']).where('id', 'in', ids(keys)).execute())
        : new Map<string, string>();
      const typed = keys.filter((k) => !/^\d+$/.test(k));
      const byLogin = typed.length
        ? await rows(
            db
              .selectFrom('member')
              .select(['login_name as key', 'name'])
              .where(
                sql<string>`lower(login_name)`,
                'in',
                typed.map((k) => k.toLowerCase()),
              )
              .execute(),
          )
        : new Map<string, string>();
      return new Map([...byId, ...byLogin]);
    }
    case 'role':
      return ids(keys).length
        ? rows(db.selectFrom('role').select(['id as key', 'name']).where('id', 'in', ids(keys)).execute())
        : new Map();
    case 'organisation': {
      const byId = ids(keys).length
        ? await rows(db.selectFrom('organisation').select(['id as key', 'name']).where('id', 'in', ids(keys)).execute())
        : new Map<string, string>();
      const codes = keys.filter((k) => !/^\d+$/.test(k));
      if (!codes.length) return byId;
      const byCode = await db
        .selectFrom('organisation')
        .select(['code', 'name'])
        .where(
          sql<string>`lower(code)`,
          'in',
          codes.map((c) => c.toLowerCase()),
        )
        .execute();
      const lower = new Map(byCode.map((r) => [r.code.toLowerCase(), r.name]));
      return new Map([
        ...byId,
        ...codes.flatMap((c): Array<[string, string]> => (lower.has(c.toLowerCase()) ? [[c, lower.get(c.toLowerCase())!]] : [])),
      ]);
    }
    case 'resource': {
      const pairs = keys.map((k) => k.split(':')).filter((p) => p.length === 2);
      if (!pairs.length) return new Map();
      const found = await db
        .selectFrom('resource')
        .select(['application', 'code', 'name'])
        .where((eb) => eb.or(pairs.map(([application, code]) => eb.and([eb('application', '=', application), eb('code', '=', code)]))))
        .execute();
      return new Map(found.map((r) => [`${r.application}:${r.code}`, r.name]));
    }
    default: {
      // A schema entity: its option label (a plate, a name…), when that is a column of its own.
      const schema = schemaEntities[kind as keyof typeof schemaEntities];
      const x = schema?.['x-entity'];
      const labelProp = x?.optionLabel ?? 'name';
      const prop = schema?.properties[labelProp];
      if (!x?.table || !prop || prop.readOnly || !ids(keys).length) return new Map();
      const r = await sql<{
        key: number;
        name: string | null;
      }>`SELECT id AS key, ${sql.ref(columnOf(labelProp, prop))}::text AS name FROM ${sql.table(x.table)} WHERE id IN (${sql.join(ids(keys))})`.execute(
        db,
      );
      return new Map(r.rows.filter((row) => row.name !== null).map((row) => [String(row.key), row.name as string]));
    }
  }
}

/** A deleted row's name as its audit detail recorded it (`{"name": …}`). */
function recordedName(detail: string | null): string | null {
  if (!detail?.startsWith('{')) return null;
  try {
    const name = (JSON.parse(detail) as { name?: unknown }).name;
    return typeof name === 'string' || typeof name === 'number' ? String(name) : null;
  } catch {
    return null;
  }
}

export interface NamedTarget {
  /** The kind of thing the target is (an entity name), or null when the target is free text. */
  targetKind: string | null;
  /** Its name now, else as recorded when it was deleted, else null (the row is gone). */
  targetName: string | null;
}

/** Names the targets of one page of audit rows, one query per kind of thing. */
export async function nameTargets<R extends { action: string; target: string | null; detail: string | null }>(
  db: Kysely<DB>,
  rows: R[],
): Promise<Array<R & NamedTarget>> {
  const refs = rows.map((r) => targetRef(r.action, r.target));
  const byKind = new Map<string, string[]>();
  for (const ref of refs) if (ref && !ref.readable) byKind.set(ref.kind, [...(byKind.get(ref.kind) ?? []), ref.key]);
  const names = new Map<string, Map<string, string>>();
  for (const [kind, keys] of byKind) names.set(kind, await namesOf(db, kind, [...new Set(keys)]));
  return rows.map((r, i) => {
    const ref = refs[i];
    const name = ref?.readable ? ref.key : ref && names.get(ref.kind)?.get(ref.key);
    return { ...r, targetKind: ref?.kind ?? null, targetName: name ?? recordedName(r.detail) };
  });
}
