import {
  columnOf,
  effectiveSchema,
  isTextProperty as isText,
  keywordColumns,
  keywordDocument,
  storedProperties,
  type EntitySchema,
} from '../../schemas/kit/entity';

/**
 * The indexes the generic list query needs, derived from an entity schema so a dropped-in schema
 * gets them too: trigram GIN indexes for case-insensitive "contains" search (`x-ui.search: like`
 * columns, the entity's keyword document, the label columns of relations the keyword reaches), and
 * `(column, id)` btree indexes for sortable columns, matching the query's `ORDER BY col, id`.
 * Every statement is idempotent (a relation label's index may already exist for another entity).
 */
export const TRGM_EXTENSION = 'CREATE EXTENSION IF NOT EXISTS pg_trgm;';

const trigramOn = (name: string, table: string, expr: string) =>
  `CREATE INDEX IF NOT EXISTS ${name} ON ${table} USING gin (${expr} gin_trgm_ops);`;
export const trigramIndex = (table: string, col: string) => trigramOn(`${table}_${col}_trgm`, table, col);
export const sortIndex = (table: string, col: string) => `CREATE INDEX IF NOT EXISTS ${table}_${col}_sort ON ${table} (${col}, id);`;

/** Index statements for one entity (`all`: every entity schema file by name, for relation labels). */
export function queryIndexSql(file: EntitySchema, all: Record<string, EntitySchema>): string[] {
  const schema = effectiveSchema(file);
  const x = schema['x-entity'];
  const out: string[] = [];
  const own = new Map(storedProperties(schema));
  const labelOf = new Map(
    Object.values(schema.properties)
      .map((p) => p['x-ref'])
      .filter((r): r is NonNullable<typeof r> => !!r)
      .map((r) => [r.as, r] as const),
  );
  const keyword = keywordColumns(schema);
  // A keyword of one text column is that column: its own trigram index serves.
  const bare = keyword.length === 1 && keyword[0].text;
  if (keyword.length && !bare) out.push(trigramOn(`${x.table}_keyword_trgm`, x.table, `(${keywordDocument(keyword)})`));
  const keywordLabels = (x.keyword ?? []).filter((k) => labelOf.has(k));
  const singleKeyword = bare ? (x.keyword ?? []).filter((k) => own.has(k)) : [];
  const likes = Object.entries(schema.properties)
    .filter(([, p]) => p['x-ui']?.search === 'like')
    .map(([n]) => n);
  for (const name of new Set([...likes, ...singleKeyword, ...keywordLabels])) {
    const p = own.get(name);
    if (p) {
      if (isText(p)) out.push(trigramIndex(x.table, columnOf(name, p)));
      continue;
    }
    const ref = labelOf.get(name);
    if (!ref) continue;
    if (ref.entity === 'organisation') {
      out.push(trigramIndex('organisation', columnOf(ref.label)));
      continue;
    }
    const target = all[ref.entity];
    const labelProp = target?.properties[ref.label];
    if (target && isText(labelProp)) out.push(trigramIndex(target['x-entity'].table, columnOf(ref.label, labelProp)));
  }
  for (const [name, p] of own) {
    if (name !== 'id' && p['x-ui']?.sort) out.push(sortIndex(x.table, columnOf(name, p)));
  }
  return out;
}
