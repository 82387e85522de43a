import { createElement, type ReactNode } from 'react';
import type { EntityPageContext } from '../schema/pageContract';
import ExportButton from './ExportButton';
import Permission from '../../session/Permission';
import { sheetFeatures } from './sheetCalls';
import UploadButton from './UploadButton';

/**
 * The spreadsheet buttons of a schema page's toolbar (SPEC §9): import, renewal and export, each
 * only when the schema declares its routes, each guarded by the schema's permission code.
 */
export function sheetButtons(ctx: EntityPageContext): ReactNode[] {
  const f = sheetFeatures(ctx.schema);
  const out: ReactNode[] = [];
  const guarded = (key: string, code: string, children: ReactNode) => out.push(createElement(Permission, { key, code, children }));
  if (f.import) guarded('sheet-import', f.import.code, createElement(UploadButton, { ctx, flow: f.import }));
  if (f.renew) guarded('sheet-renew', f.renew.code, createElement(UploadButton, { ctx, flow: f.renew }));
  if (f.export) guarded('sheet-export', f.export.authority, createElement(ExportButton, { ctx, call: f.export }));
  return out;
}

export { sheetFeatures } from './sheetCalls';
