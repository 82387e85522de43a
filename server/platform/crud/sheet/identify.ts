import { sql, type Kysely } from 'kysely';
import {
  baseType,
  deviceIdentity,
  identityOwnerColumn,
  identityTable,
  naturalKeys,
  tenantPath,
  type NaturalKey,
  type PropertySchema,
} from '../../../../schemas/kit/entity';
import type { Caller } from '../../auth/caller';
import type { DB } from '../../db/tables';
import { pathInSubtree } from '../../scope';
import type { EntityModel } from '../model';
import type { SheetColumn } from './columns';
import type { SheetRow } from './row';

/** One row naming a key: which key, its comparable text, and what the person wrote. */
interface Claim {
  r: SheetRow;
  key: number;
  /** The properties this claim names (one of an identity's, or a unique set). */
  props: string[];
  text: string;
  shown: string;
}

/** A stored record a claim named: its id, and its organisation's path (null: the entity is not org-scoped). */
interface Hit {
  claim: Claim;
  id: number;
  path: string | null;
}

const shownProps = (props: string[]) => props.filter((p) => p !== 'orgId');

/** What a row wrote for a property: the cell as read (a relation's label), else the value resolved. */
function written(r: SheetRow, cols: SheetColumn[], p: string): string {
  const col = cols.find((c) => c.key === p || c.ref?.prop === p);
  const v = col && r.raw[col.key] !== undefined ? r.raw[col.key] : r.body[p];
  return v instanceof Date ? v.toISOString().slice(0, 10) : String(v);
}

/** The rows' claims on each key: a key counts when every one of its properties has a value. */
function claimsOf(m: EntityModel, caller: Caller, rows: SheetRow[], cols: SheetColumn[]): Claim[] {
  const valueOf = (r: SheetRow, p: string) => (p === 'orgId' ? (r.body.orgId ?? caller.orgId) : r.body[p]);
  const present = (r: SheetRow, p: string) => valueOf(r, p) !== undefined && valueOf(r, p) !== null;
  return naturalKeys(m.schema['x-entity']).flatMap((k, key) =>
    rows.flatMap((r): Claim[] => {
      const shown = (props: string[]) =>
        shownProps(props)
          .map((p) => written(r, cols, p))
          .join(' / ');
      if (k.kind === 'identity')
        return k.props
          .filter((p) => present(r, p))
          .map((p) => ({ r, key, props: [p], text: deviceIdentity(String(r.body[p])), shown: shown([p]) }));
      if (!k.props.every((p) => present(r, p))) return [];
      const values = k.props.map((p) => String(valueOf(r, p)));
      const text = k.kind === 'tenant' ? `${tenantPath(r.orgPath)}\u0000${values[0]}` : JSON.stringify(values);
      return [{ r, key, props: k.props, text, shown: shown(k.props) }];
    }),
  );
}

/** Casts a text parameter to the column's type, so a date or a number compares as itself. */
function typed(p: PropertySchema | undefined, value: ReturnType<typeof sql.ref>) {
  const type = p && baseType(p);
  if (p?.format === 'date-time') return sql`${value}::timestamptz`;
  if (p?.format === 'date') return sql`${value}::date`;
  if (type === 'integer') return sql`${value}::bigint`;
  if (type === 'number') return sql`${value}::numeric`;
  if (type === 'boolean') return sql`${value}::boolean`;
  return null;
}

/** Stored records holding the claims' values of one key, whatever their organisation. */
async function storedHits(db: Kysely<DB>, m: EntityModel, k: NaturalKey, claims: Claim[]): Promise<Hit[]> {
  if (!claims.length) return [];
  const orgJoin = m.orgScoped ? sql`JOIN organisation o ON o.id = t.org_id` : sql``;
  const path = m.orgScoped ? sql`o.path` : sql`NULL::text`;
  const byText = new Map<string, Claim[]>();
  for (const c of claims) byText.set(c.text, [...(byText.get(c.text) ?? []), c]);
  const texts = [...byText.keys()];
  let found: Array<{ text: string; id: number; path: string | null }>;
  if (k.kind === 'identity') {
    const owner = sql.ref(`i.${identityOwnerColumn(m.table)}`);
    found = (
      await sql<{
        text: string;
        id: number;
        path: string | null;
      }>`SELECT i.identity AS text, t.id, ${path} AS path FROM ${sql.table(identityTable(m.table))} i JOIN ${sql.table(m.table)} t ON t.id = ${owner} ${orgJoin} WHERE i.identity = ANY(${texts}::text[])`.execute(
        db,
      )
    ).rows;
  } else if (k.kind === 'tenant') {
    const col = sql.ref(`t.${m.columns.get(k.props[0])!}`);
    const values = [...new Set(claims.map((c) => c.text.split('\u0000')[1]))];
    const rows = (
      await sql<{
        v: string;
        id: number;
        path: string;
      }>`SELECT ${col}::text AS v, t.id, o.path FROM ${sql.table(m.table)} t JOIN organisation o ON o.id = t.org_id WHERE ${col}::text = ANY(${values}::text[])`.execute(
        db,
      )
    ).rows;
    found = rows.map((r) => ({ text: `${tenantPath(r.path)}\u0000${r.v}`, id: r.id, path: r.path }));
  } else {
    // One array per property (not a parameter per cell): one statement shape however many rows.
    const parsed = texts.map((t) => JSON.parse(t) as string[]);
    const arrays = k.props.map((_, i) => sql`${parsed.map((v) => v[i])}::text[]`);
    const names = k.props.map((_, i) => `v${i}`);
    const on = k.props.map((p, i) => {
      const col = sql.ref(`t.${m.columns.get(p)!}`);
      const v = sql.ref(`k.${names[i]}`);
      const cast = typed(m.schema.properties[p], v);
      return cast ? sql`${col} = ${cast}` : sql`${col}::text = ${v}`;
    });
    const rows = (
      await sql<{
        n: string;
        id: number;
        path: string | null;
      }>`SELECT k.n, t.id, ${path} AS path FROM unnest(${sql.join(arrays)}) WITH ORDINALITY AS k(${sql.raw(names.join(', '))}, n) JOIN ${sql.table(m.table)} t ON ${sql.join(on, sql` AND `)} ${orgJoin}`.execute(
        db,
      )
    ).rows;
    found = rows.map((r) => ({ text: texts[Number(r.n) - 1], id: r.id, path: r.path }));
  }
  return found.flatMap((f) => (byText.get(f.text) ?? []).map((claim) => ({ claim, id: f.id, path: f.path })));
}

/** A stored record holding a create row's key, in the create route's words (which say nothing of where it is). */
function duplicateError(m: EntityModel, k: NaturalKey, field: string, labelList: string[]): SheetRow['errs'][number] {
  if (k.kind === 'identity')
    return { field, key: 'error.identityTaken', params: {}, labelList: k.props.map((p) => `${m.labelPrefix}.${p}`) };
  if (k.kind === 'tenant') return { field, key: 'validation.duplicateInTenant', params: {}, labelKey: `${m.labelPrefix}.${field}` };
  return { field, key: 'error.duplicate', params: {}, labelList };
}

/**
 * Each row's natural keys (naturalKeys: the schema's one definition) looked up: a row naming a
 * record is that record's update (`match`), a row naming none creates one. Refused, each with its
 * own words: a key another row of the file names too, two keys naming different records, a key of
 * a record outside the caller's scope (said as the duplicate check says it: it exists, and no more),
 * and a record two rows name by different keys. `createOnly` (a sheet whose rows can only be
 * new): a row naming a stored record is refused as the create route refuses it.
 */
export async function identifyRows(
  db: Kysely<DB>,
  m: EntityModel,
  caller: Caller,
  rows: SheetRow[],
  cols: SheetColumn[],
  createOnly = false,
): Promise<void> {
  const keys = naturalKeys(m.schema['x-entity']);
  const labels = (props: string[]) => shownProps(props).map((p) => `${m.labelPrefix}.${p}`);
  const claims = claimsOf(m, caller, rows, cols);
  const first = new Map<string, SheetRow>();
  for (const c of claims) {
    const id = `${c.key}\u0000${c.text}`;
    const earlier = first.get(id);
    if (!earlier) first.set(id, c.r);
    // One repeat is enough to say (a copied row repeats every key).
    else if (earlier !== c.r && !c.r.errs.length) {
      const field = c.props[c.props.length - 1];
      c.r.errs.push({ field, key: 'sheet.duplicateInFile', params: { row: earlier.row }, labelList: labels(c.props) });
    }
  }
  const live = claims.filter((c) => !c.r.errs.length);
  const hits = (
    await Promise.all(
      keys.map((k, i) =>
        storedHits(
          db,
          m,
          k,
          live.filter((c) => c.key === i),
        ),
      ),
    )
  ).flat();
  const byRow = new Map<SheetRow, Hit[]>();
  for (const h of hits) byRow.set(h.claim.r, [...(byRow.get(h.claim.r) ?? []), h]);
  const named = new Map<number, SheetRow>();
  for (const r of rows) {
    const mine = byRow.get(r) ?? [];
    if (!mine.length || r.errs.length) continue;
    const field = (h: Hit) => h.claim.props[h.claim.props.length - 1];
    if (createOnly) {
      for (const h of mine) r.errs.push(duplicateError(m, keys[h.claim.key], field(h), labels(h.claim.props)));
      continue;
    }
    const outside = mine.find((h) => h.path !== null && !pathInSubtree(caller.orgPath, h.path));
    if (outside) {
      r.errs.push({ field: field(outside), key: 'sheet.keyOutOfScope', params: {}, labelList: labels(outside.claim.props) });
      continue;
    }
    const other = mine.find((h) => h.id !== mine[0].id);
    if (other) {
      r.errs.push({
        field: field(other),
        key: 'sheet.keysClash',
        params: {},
        labelList: labels(other.claim.props),
        otherList: labels(mine[0].claim.props),
      });
      continue;
    }
    const earlier = named.get(mine[0].id);
    if (earlier) {
      r.errs.push({ field: field(mine[0]), key: 'sheet.sameRecord', params: { row: earlier.row }, labelList: labels(mine[0].claim.props) });
      continue;
    }
    named.set(mine[0].id, r);
    r.match = { id: mine[0].id, key: { fields: shownProps(mine[0].claim.props), value: mine[0].claim.shown } };
  }
}
