import type { DB } from '../../db/tables';
import { sql, type Kysely } from 'kysely';
import type { Translate } from '../../../../schemas/kit/i18n';
import type { Caller } from '../../auth/caller';
import type { EntityModel, RefModel } from '../model';
import type { SheetColumn } from './columns';
import type { TemplateColumn } from './workbook';
import { pathUnder } from '../../scope';

/** Longest dropdown a template offers: past this, typing the label is the better tool. */
const MAX_CHOICES = 1000;

/** The labels of the rows a relation may point at, as the caller may use them (their subtree). */
async function refChoices(db: Kysely<DB>, caller: Caller, ref: RefModel): Promise<string[]> {
  const within = pathUnder('o.path', caller.orgPath);
  const q = ref.isOrganisation
    ? sql<{ label: string }>`SELECT o.name AS label FROM organisation o WHERE ${within} ORDER BY o.path LIMIT ${MAX_CHOICES}`
    : ref.orgScoped
      ? sql<{
          label: string;
        }>`SELECT DISTINCT t.${sql.raw(ref.labelCol)}::text AS label FROM ${sql.raw(ref.table)} t JOIN organisation o ON o.id = t.org_id WHERE ${within} ORDER BY 1 LIMIT ${MAX_CHOICES}`
      : sql<{
          label: string;
        }>`SELECT DISTINCT ${sql.raw(ref.labelCol)}::text AS label FROM ${sql.raw(ref.table)} ORDER BY 1 LIMIT ${MAX_CHOICES}`;
  return (await q.execute(db)).rows.map((r) => r.label).filter((l) => l !== null && l !== '');
}

/** Each template column with whether it is required and, where the values are a fixed set, the set. */
export async function templateColumns(
  db: Kysely<DB>,
  m: EntityModel,
  caller: Caller,
  cols: SheetColumn[],
  t: Translate,
  allRequired: boolean,
): Promise<TemplateColumn[]> {
  const required = new Set((m.createSchema as { required?: string[] }).required ?? []);
  const out: TemplateColumn[] = [];
  for (const col of cols) {
    const prop = col.ref ? col.ref.prop : col.key;
    const s = col.schema;
    const type = Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type;
    const choices = s.enum
      ? s.enum.filter((e) => e !== null).map((e) => t(`entity.${m.name}.enums.${col.key}.${String(e)}`))
      : type === 'boolean'
        ? [t('common.yes'), t('common.no')]
        : col.ref
          ? await refChoices(db, caller, col.ref)
          : undefined;
    out.push({ col, required: allRequired || required.has(prop), ...(choices ? { choices } : {}) });
  }
  return out;
}
