import { permissionOf, type EntitySchema, type SheetOperation } from '../../../schemas/kit/entity';

import type { SheetCall } from '../../services/sheet';

export type { SheetCall } from '../../services/sheet';

/** An upload flow: its template, its check (nothing stored) and the call that stores. */
export interface UploadFlow {
  kind: 'import' | 'renew';
  template: SheetCall;
  validate: SheetCall;
  apply: SheetCall;
  /** The code the button is guarded by (the storing call's). */
  code: string;
}

export interface SheetFeatures {
  export?: SheetCall;
  import?: UploadFlow;
  renew?: UploadFlow;
}

/** The first route the schema declares for an operation (others are aliases), with its permission code. */
export function sheetCall(schema: EntitySchema, op: SheetOperation): SheetCall | undefined {
  const x = schema['x-entity'];
  const route = x.routes[op]?.[0];
  if (!route) return undefined;
  const [method, url] = route.split(' ');
  return { method, url, authority: permissionOf(x, op) };
}

function flow(schema: EntitySchema, kind: 'import' | 'renew'): UploadFlow | undefined {
  const template = sheetCall(schema, 'template');
  const validate = sheetCall(schema, kind === 'import' ? 'importValidate' : 'renewValidate');
  const apply = sheetCall(schema, kind);
  if (!template || !validate || !apply) return undefined;
  if (kind === 'renew' && !schema['x-entity'].renew) return undefined;
  return {
    kind,
    template: kind === 'renew' ? { ...template, url: `${template.url}?kind=renew` } : template,
    validate,
    apply,
    code: apply.authority,
  };
}

/** Which spreadsheet buttons an entity's page shows: only what its schema declares. */
export function sheetFeatures(schema: EntitySchema): SheetFeatures {
  const out: SheetFeatures = {};
  const exp = sheetCall(schema, 'export');
  if (exp) out.export = exp;
  const imp = flow(schema, 'import');
  if (imp) out.import = imp;
  const renew = flow(schema, 'renew');
  if (renew) out.renew = renew;
  return out;
}

/** The console's largest page; the server refuses more ids in one export (EXPORT_MAX_IDS). */
export const EXPORT_MAX_IDS = 1000;

export type ExportMode = 'current' | 'all';

export interface ExportQuery {
  criteria: Record<string, unknown>;
  order?: { property: string; direction: 'ASC' | 'DESC' };
  rowIds: readonly number[];
}

/**
 * The export body: the list's criteria and order, and for the current page the ids of the rows on
 * screen (the server still applies the criteria and the caller's scope).
 */
export function exportBody(mode: ExportMode, q: ExportQuery): Record<string, unknown> {
  const body: Record<string, unknown> = { criteria: q.criteria, ...(q.order ? { order: q.order } : {}) };
  if (mode === 'current') body.ids = q.rowIds.slice(0, EXPORT_MAX_IDS);
  return body;
}
