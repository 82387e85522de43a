import { sql, type Kysely } from 'kysely';
import { baseType, type PropertySchema } from '../../../../schemas/kit/entity';
import type { Caller } from '../../auth/caller';
import type { DB } from '../../db/tables';
import type { EntityModel } from '../model';
import { compact, fromClause, scopeCondition, selectList, type Row } from '../query';
import { coerce, type SheetColumn } from './columns';
import type { Body, SheetRow } from './row';

/** JSON with its keys sorted, so a stored structure and the same one typed in compare equal. */
function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v !== null && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

/**
 * A value as compared: the same instant, day, number or structure whichever way it was read or
 * stored. Instants to the second, as a sheet writes them (a stored millisecond is no change).
 */
export function comparable(p: PropertySchema | undefined, v: unknown): string {
  if (v === null || v === undefined) return 'null';
  const type = p && baseType(p);
  if (p?.format === 'date-time') {
    const at = v instanceof Date ? v.getTime() : Date.parse(String(v));
    return Number.isNaN(at) ? String(v) : String(Math.floor(at / 1000));
  }
  if (p?.format === 'date') return v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10);
  if (typeof v === 'object') return stableJson(v);
  if (type === 'number' || type === 'integer') return String(Number(v));
  return String(v);
}

/** The matched records as the list answers them (the caller's scope again: a record moved away meanwhile is not loaded). */
export async function loadMatches(db: Kysely<DB>, m: EntityModel, caller: Caller, rows: SheetRow[]): Promise<void> {
  const ids = rows.flatMap((r) => (r.match ? [r.match.id] : []));
  if (!ids.length) return;
  const found =
    await sql<Row>`SELECT ${selectList(m)} FROM ${fromClause(m)} WHERE t.id = ANY(${ids}::int[]) AND ${scopeCondition(m, caller)}`.execute(
      db,
    );
  const byId = new Map(found.rows.map((s) => [Number(s.id), s]));
  for (const r of rows) if (r.match) r.match.stored = byId.get(r.match.id);
}

/** What an update row changes: the properties the file gave whose value differs from the stored one. */
export function changesOf(m: EntityModel, r: SheetRow, stored: Row): Body {
  const out: Body = {};
  for (const p of r.given)
    if (m.writable.has(p) && comparable(m.schema.properties[p], r.body[p]) !== comparable(m.schema.properties[p], stored[p]))
      out[p] = r.body[p];
  return out;
}

/** The stored record with an update's changes over it, as the entity's own rule and the watchers see it. */
export const mergedOver = (stored: Row, changes: Body): Row => compact({ ...stored, ...changes });

/**
 * Read-only columns an update row changed (a creation time edited): the server writes these, a file
 * cannot. A blank cell is no change; a cell that says what is stored is none either.
 */
export function readOnlyChanged(m: EntityModel, r: SheetRow, stored: Row, readOnly: SheetColumn[], zone?: string): SheetColumn[] {
  return readOnly.filter((c) => {
    const cell = r.readOnlyRaw[c.key];
    if (cell === undefined) return false;
    const p = m.schema.properties[c.key];
    return comparable(p, coerce(m, c, cell, zone)) !== comparable(p, stored[c.key]);
  });
}
