import type { ReactNode } from 'react';
import type { EntitySchema } from '../../../schemas/kit/entity';

/**
 * What a schema page offers the code that extends it (hand-written exceptions such as bind/unbind,
 * renewal or the spreadsheet buttons): the page's schema, its current search and order, and a way
 * to reload it after a change.
 */
export type Row = Record<string, unknown> & { id: number };

export interface ListOrder {
  property: string;
  direction: 'ASC' | 'DESC';
}

export interface EntityPageContext {
  /** The effective schema (standard properties and relation labels included). */
  schema: EntitySchema;
  /** The criteria the list was last queried with (as sent to `…/query`). */
  criteria: () => Record<string, unknown>;
  order: () => ListOrder | undefined;
  /** The rows of the page on screen. */
  rows: () => readonly Row[];
  reload: () => void;
}

export interface EntityPageExtensions {
  /** Toolbar buttons after the built-in ones; each guards itself (`<Permission>`). */
  toolbar?: (ctx: EntityPageContext) => ReactNode[];
  /** Width of the fixed actions column when the row actions need more than the default. */
  actionsWidth?: number;
  /** Row actions after edit and delete; each guards itself. */
  rowActions?: (row: Row, ctx: EntityPageContext) => ReactNode[];
  /** Cell renderers replacing the default one of a property. */
  cells?: Readonly<Record<string, (value: unknown, row: Row, ctx: EntityPageContext) => ReactNode>>;
}
