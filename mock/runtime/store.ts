import type { EntityName } from '../../schemas/generated/registry';
import type { EntitySchema } from '../../schemas/kit/entity';
import type { DemoFixtures } from '../../server/seed/fixtures';
import { fixtureRows } from '../../server/seed/fixtureRows';

export interface OrgRow {
  id: number;
  code: string;
  name: string;
  type: string;
  parentId: number | null;
  /** '/1/4/': ids from the root down, as in the database; a subtree is a prefix. */
  path: string;
}

/** A stored row: camelCase properties as the entity schema names them. */
export type Row = { id: number } & Record<string, unknown>;

/**
 * The mock's in-memory database: organisations and one table per entity, filled from the demo
 * fixtures the embedded database is seeded with (same rows, same relations, ids from 1).
 */
export class MockStore {
  readonly orgs: OrgRow[] = [];
  private readonly tables = new Map<string, Row[]>();
  private readonly nextId = new Map<string, number>();

  constructor(entityNames: readonly string[]) {
    for (const n of entityNames) this.tables.set(n, []);
  }

  rows(entity: string): Row[] {
    const t = this.tables.get(entity);
    if (!t) throw new Error(`mock store has no entity ${entity}`);
    return t;
  }

  /** The next id of a table; like a database sequence, an id handed out is never handed out again. */
  allocateId(entity: string): number {
    const id = this.nextId.get(entity) ?? 1;
    this.nextId.set(entity, id + 1);
    return id;
  }

  /** Adds a row with its id (fresh unless given) and timestamps, as the database's defaults would. */
  insert(entity: string, values: Record<string, unknown>, id = this.allocateId(entity)): Row {
    const now = new Date().toISOString();
    const row: Row = { ...values, id, createdAt: now, updatedAt: now };
    this.rows(entity).push(row);
    return row;
  }

  remove(entity: string, id: number): void {
    const t = this.rows(entity);
    t.splice(
      t.findIndex((r) => r.id === id),
      1,
    );
  }

  org(id: unknown): OrgRow | undefined {
    return this.orgs.find((o) => o.id === id);
  }

  static fromFixtures(entities: Record<EntityName, EntitySchema>, fx: DemoFixtures): MockStore {
    const store = new MockStore(Object.keys(entities));
    const byCode = new Map<string, OrgRow>();
    for (const o of fx.organisations) {
      const parent = o.parent ? byCode.get(o.parent) : undefined;
      const id = store.orgs.length + 1;
      const org: OrgRow = { id, code: o.code, name: o.name, type: o.type, parentId: parent?.id ?? null, path: `${parent?.path ?? '/'}${id}/` };
      store.orgs.push(org);
      byCode.set(o.code, org);
    }
    const idOf = new Map<string, number>();
    for (const row of fixtureRows(fx)) {
      const refs = Object.fromEntries(Object.entries(row.refs).map(([prop, key]) => [prop, idOf.get(key)]));
      const defaults = Object.fromEntries(
        Object.entries(entities[row.entity].properties)
          .filter(([, p]) => p.default !== undefined)
          .map(([n, p]) => [n, p.default]),
      );
      const stored = store.insert(row.entity, { ...defaults, ...row.values, ...refs, orgId: byCode.get(row.org)!.id });
      idOf.set(row.key, stored.id);
    }
    return store;
  }
}
