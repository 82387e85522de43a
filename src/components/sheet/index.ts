import type { ReactNode } from 'react';
import type { EntityPageContext } from '../schema/pageContract';

// Replaced by the spreadsheet buttons (import, export, template).
export function sheetButtons(ctx: EntityPageContext): ReactNode[] {
  return [];
}
