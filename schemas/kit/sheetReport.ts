/**
 * What the spreadsheet import routes answer (issue 38 §15): the rows' errors, and the preview of
 * what an import will do with each row. The server builds these answers, the console reads them,
 * the OpenAPI documents them from the schemas below.
 */

/** What an import does with one valid row: a new record, an update of the one its key names, or nothing. */
export type RowAction = 'create' | 'update' | 'unchanged';

/** One valid row of the file and what the import does with it. */
export interface RowPlan {
  /** The spreadsheet's row number (the header is row 1). */
  row: number;
  action: RowAction;
  /** The natural key that named the stored record (update, unchanged): its properties and the values the row gave. */
  key?: { fields: string[]; value: string };
  /** Properties the update changes. */
  changed?: string[];
}

export interface SheetRowErrors {
  row: number;
  errors: Array<{ field: string; key: string; message: string }>;
}

/** `importValidate` (and `import` with a 400): errors, and for an import the counts and plan of its valid rows. */
export interface SheetReport {
  success: boolean;
  message: string;
  total: number;
  invalid: number;
  rows: SheetRowErrors[];
  created?: number;
  updated?: number;
  unchanged?: number;
  plan?: RowPlan[];
}

/** `import` once stored (201), or `renew` (200). */
export interface SheetDone {
  success: boolean;
  message: string;
  total: number;
  created?: number;
  updated?: number;
  unchanged?: number;
}

const count = (description: string) => ({ type: 'integer', minimum: 0, description });
const counts = {
  created: count('valid rows that create a record'),
  updated: count('valid rows that update the record their natural key names'),
  unchanged: count('valid rows equal to the record their natural key names (nothing written)'),
};

const rowErrorsSchema = {
  type: 'object',
  properties: {
    row: { type: 'integer' },
    errors: {
      type: 'array',
      items: { type: 'object', properties: { field: { type: 'string' }, key: { type: 'string' }, message: { type: 'string' } } },
    },
  },
};

const planSchema = {
  type: 'object',
  properties: {
    row: { type: 'integer' },
    action: { enum: ['create', 'update', 'unchanged'] },
    key: { type: 'object', properties: { fields: { type: 'array', items: { type: 'string' } }, value: { type: 'string' } } },
    changed: { type: 'array', items: { type: 'string' } },
  },
};

export const sheetReportSchema = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    message: { type: 'string' },
    total: { type: 'integer', description: 'rows in the file' },
    invalid: { type: 'integer', description: 'rows with errors' },
    rows: { type: 'array', items: rowErrorsSchema },
    ...counts,
    plan: { type: 'array', items: planSchema, description: 'each valid row of an import and what it does' },
  },
};

export const sheetDoneSchema = {
  type: 'object',
  properties: { success: { type: 'boolean' }, message: { type: 'string' }, total: { type: 'integer' }, ...counts },
};
