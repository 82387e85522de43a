import type { FormInstance } from 'antd';
import type { ReactElement, ReactNode } from 'react';
import type { EntitySchema } from '../../../schemas/kit/entity';
import type { Translate } from '../../../schemas/kit/i18n';
import type { CallOptions } from '../../services/http/headers';
import type { ListOrder, Row } from '../../services/entity';

/**
 * What a schema page offers the code that extends it (hand-written exceptions such as bind/unbind,
 * renewal or the spreadsheet buttons): the page's schema, its current search and order, and a way
 * to reload it after a change.
 */
export type { ListOrder, Row } from '../../services/entity';

export interface EntityPageContext {
  /** The effective schema (standard properties and relation labels included). */
  schema: EntitySchema;
  /** The criteria the list was last queried with (as sent to `…/query`, fixed criteria included). */
  criteria: () => Record<string, unknown>;
  order: () => ListOrder | undefined;
  /** The rows of the page on screen. */
  rows: () => readonly Row[];
  reload: () => void;
  /** Opens the create dialog with these values filled in (a child under a row of a tree). */
  create: (values?: Record<string, unknown>) => void;
  /** Opens the edit dialog of a row. */
  edit: (row: Row) => void;
}

/** How the page calls its entity's routes: extra headers, and the action codes it sends and checks. */
export interface EntityCalls {
  /** Options of every call (e.g. `application: 'vehicle-app'`, whose roles have their own codes). */
  options?: Pick<CallOptions, 'application' | 'appCode'>;
  /** The action code of an operation as this page guards it (`role-add` → `role-add-app-vehicle`). */
  code?: (code: string) => string;
}

export interface EntityPageExtensions {
  /** Toolbar buttons after the built-in ones; each guards itself (`<Permission>`). */
  toolbar?: (ctx: EntityPageContext) => ReactNode[];
  /** Width of the fixed actions column when the row actions need more than the default. */
  actionsWidth?: number;
  /** Row actions after edit and delete; each guards itself. */
  rowActions?: (row: Row, ctx: EntityPageContext) => ReactNode[];
  /** Row actions before edit and delete (the first thing a row offers, e.g. "add child"). */
  leadingRowActions?: (row: Row, ctx: EntityPageContext) => ReactNode[];
  /** A part of the create and edit dialog the schema's fields do not render (policy parameters). */
  formSection?: FormSection;
  /** Cell renderers replacing the default one of a property. */
  cells?: Readonly<Record<string, (value: unknown, row: Row, ctx: EntityPageContext) => ReactNode>>;
  /**
   * A tree: every row in one query, nested under the row its self-referencing property (`x-ref` to
   * this entity, e.g. `parentId`) names, opened fully on each load, with expand and collapse all.
   */
  tree?: boolean;
  /**
   * The rows of a tree the server answers already nested (the passport's resource tree of one
   * application), loaded instead of the query route; the tree needs no self-referencing property then.
   */
  loadTree?: () => Promise<Row[]>;
  /** Criteria every query of the page carries (a page showing a fixed subset, e.g. one application's accounts). */
  criteria?: Readonly<Record<string, unknown>>;
  /** Headers and action codes of the page's calls. */
  calls?: EntityCalls;
  /** Catalogue keys replacing the page's words: the header, the add button, the dialog titles. */
  labels?: Partial<Record<'header' | 'add' | 'createTitle' | 'editTitle', string>>;
  /** The create and edit dialog. */
  form?: FormExtensions;
  /** Content above the table (a notice). */
  header?: ReactNode;
  /** The page's test id (default `entity-page-<entity>`). */
  testId?: string;
  /** After the dialog stored a row (its id), and the list reloaded. */
  onSaved?: (id: number | undefined) => void;
}

/** What the page passes to one field's own input or decides about it. */
export interface FieldContext {
  form: FormInstance;
  /** The row being edited; none when creating. */
  row?: Row;
}

/**
 * Page-specific parts of the entity's dialog: an input replacing a field's default one, help under a
 * field, fields left out, what is sent and how a refusal may be answered.
 */
export interface FormExtensions {
  /** Always a dialog, never a drawer, however many fields. */
  modal?: boolean;
  /** A field's own input (Form.Item injects value and onChange). */
  inputs?: Readonly<Record<string, (p: FieldContext) => ReactElement>>;
  /** Catalogue keys of help shown under a field (what choosing it means). */
  help?: Readonly<Record<string, string>>;
  /**
   * Fields not shown (nor sent) in this mode (e.g. a flag only some callers may set). A hook: called
   * on every render of the dialog, so it may ask the server once, or watch a field of the dialog's
   * form (a resource's menu-only fields go when it is an action).
   */
  useHidden?: (mode: 'create' | 'update', row: Row | undefined, form: FormInstance) => readonly string[];
  /** Fields required when creating beyond the schema's `required`. */
  requiredOnCreate?: readonly string[];
  /** An update sends only what changed (the server checks and audits just the change). */
  changesOnly?: boolean;
  /**
   * A refusal the page answers itself (e.g. "registered on another platform: enable it here?"):
   * a promise of whether the row was saved after all, or null to show the refusal as usual.
   */
  recover?: (p: { error: unknown; body: Record<string, unknown>; mode: 'create' | 'update'; t: Translate }) => Promise<boolean> | null;
}

/**
 * A section of an entity's dialog rendered by the page: the form fields it owns (read from the row
 * when editing, sent in the body as they are unless `local`) and its content, placed after the
 * schema's fields.
 */
export interface FormSection {
  fields: readonly string[];
  /** The fields only check the form (a password's confirmation) and are never sent. */
  local?: boolean;
  render: (p: { form: FormInstance; row?: Row }) => ReactNode;
}
