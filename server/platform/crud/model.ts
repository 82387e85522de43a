import {
  columnOf,
  createBodySchema,
  isTextProperty,
  keywordColumns,
  keywordDocument,
  queryBodySchema,
  searchableProperties,
  sortableProperties,
  storedProperties,
  updateBodySchema,
  writableProperties,
  type EntitySchema,
  type PropertySchema,
  type SearchMode,
  identityIndexName,
  uniqueIndexName,
} from '../../../schemas/kit/entity';

/** A relation of an entity, joined to show its label. */
export interface RefModel {
  prop: string;
  col: string;
  alias: string;
  table: string;
  labelCol: string;
  as: string;
  /** The referenced rows are org-scoped too (a caller may only link to rows they can see). */
  orgScoped: boolean;
  isOrganisation: boolean;
}

/**
 * What a filter on a property tests. An own column is compared in place (so its indexes serve);
 * a relation label becomes `fk IN (ids of referenced rows whose label matches)`, evaluated once
 * before the scan instead of joining every row first.
 */
export type FilterTarget =
  { kind: 'column'; expr: string; text: boolean } | { kind: 'ref'; fk: string; table: string; labelCol: string; text: boolean };

/** Everything the generic CRUD needs about one entity, computed once at start-up. */
export interface EntityModel {
  name: string;
  schema: EntitySchema;
  table: string;
  orgScoped: boolean;
  labelPrefix: string;
  /** prop → column of the entity's own table. */
  columns: Map<string, string>;
  writable: Map<string, PropertySchema>;
  refs: RefModel[];
  /** prop → what its criterion tests, and how. */
  searchable: Map<string, { target: FilterTarget; mode: SearchMode; prop: PropertySchema }>;
  sortable: Map<string, string>;
  keyword: FilterTarget[];
  defaultOrder: { expr: string; direction: 'ASC' | 'DESC' };
  optionLabel: string;
  createSchema: Record<string, unknown>;
  updateSchema: Record<string, unknown>;
  querySchema: Record<string, unknown>;
  /** Unique indexes (and the identity table's key) → the properties they cover; `key`: the message when not error.duplicate. */
  uniqueIndexes: Array<{ index: string; fields: string[]; key?: string }>;
  /** Unique property sets as the schema declares them (orgId included), for import checks. */
  uniqueSets: string[][];
  /** Columns the server stamps on every create and update: who (member name) and when. */
  stamp?: { operatorCol: string; timeCol: string };
}

/** The keyword's own columns as one document (one indexed condition), plus each relation label. */
function keywordTargets(schema: EntitySchema, targetOf: Map<string, FilterTarget>): FilterTarget[] {
  const own = keywordColumns(schema);
  const labels = (schema['x-entity'].keyword ?? []).map((k) => targetOf.get(k)!).filter((t) => t.kind === 'ref');
  return [...(own.length ? [{ kind: 'column' as const, expr: keywordDocument(own, 't'), text: true }] : []), ...labels];
}

export function buildModel(schema: EntitySchema, all: Record<string, EntitySchema>): EntityModel {
  const x = schema['x-entity'];
  const columns = new Map(storedProperties(schema).map(([n, p]) => [n, columnOf(n, p)]));
  const refs: RefModel[] = [];
  const exprOf = new Map<string, string>();
  const targetOf = new Map<string, FilterTarget>();
  for (const [n, c] of columns) {
    exprOf.set(n, `t.${c}`);
    targetOf.set(n, { kind: 'column', expr: `t.${c}`, text: isTextProperty(schema.properties[n]) });
  }
  Object.entries(schema.properties).forEach(([prop, p]) => {
    const ref = p['x-ref'];
    if (!ref) return;
    const isOrganisation = ref.entity === 'organisation';
    const target = isOrganisation ? undefined : all[ref.entity];
    if (!isOrganisation && !target) throw new Error(`${x.name}.${prop}: x-ref to unknown entity ${ref.entity}`);
    const alias = `r${refs.length}`;
    const labelCol = isOrganisation ? columnOf(ref.label) : columnOf(ref.label, target!.properties[ref.label]);
    refs.push({
      prop,
      col: columns.get(prop)!,
      alias,
      table: isOrganisation ? 'organisation' : target!['x-entity'].table,
      labelCol,
      as: ref.as,
      orgScoped: isOrganisation || !!target?.['x-entity'].orgScoped,
      isOrganisation,
    });
    exprOf.set(ref.as, `${alias}.${labelCol}`);
    const table = refs[refs.length - 1].table;
    const labelText = isOrganisation || isTextProperty(target!.properties[ref.label]);
    targetOf.set(ref.as, { kind: 'ref', fk: `t.${columns.get(prop)!}`, table, labelCol, text: labelText });
  });
  const searchable = new Map(searchableProperties(schema).map(([n, p, mode]) => [n, { target: targetOf.get(n)!, mode, prop: p }] as const));
  const sortable = new Map(sortableProperties(schema).map((n) => [n, exprOf.get(n)!] as const));
  const order = x.defaultOrder ?? { property: 'id', direction: 'ASC' as const };
  return {
    name: x.name,
    schema,
    table: x.table,
    orgScoped: x.orgScoped,
    labelPrefix: `entity.${x.name}.fields`,
    columns,
    writable: new Map(writableProperties(schema)),
    refs,
    searchable,
    sortable,
    keyword: keywordTargets(schema, targetOf),
    defaultOrder: { expr: exprOf.get(order.property) ?? 't.id', direction: order.direction },
    optionLabel: exprOf.get(x.optionLabel ?? 'name') ?? 't.id',
    createSchema: createBodySchema(schema),
    updateSchema: updateBodySchema(schema),
    querySchema: queryBodySchema(schema),
    uniqueIndexes: [
      ...(x.unique ?? []).map((set) => ({
        index: uniqueIndexName(
          x.table,
          set.map((p) => columns.get(p)!),
        ),
        fields: set.filter((p) => p !== 'orgId'),
      })),
      ...(x.identity ? [{ index: identityIndexName(x.table), fields: x.identity, key: 'error.identityTaken' }] : []),
    ],
    uniqueSets: x.unique ?? [],
    ...(x.stamp ? { stamp: { operatorCol: columns.get(x.stamp.operator)!, timeCol: columns.get(x.stamp.time)! } } : {}),
  };
}
