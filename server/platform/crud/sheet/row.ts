import type { FieldError } from '../../../../schemas/kit/errors';
import type { Row as StoredRow } from '../query';

export type Body = Record<string, unknown>;

/** A row's field error; `labelList` names several fields (a unique set) rendered together, `otherList` another set. */
export interface RowFieldError extends FieldError {
  labelList?: string[];
  otherList?: string[];
}

/** The stored record a row's natural key named, inside the caller's scope. */
export interface RowMatch {
  id: number;
  /** The key's properties (the organisation left out) and the values the row gave them, as written. */
  key: { fields: string[]; value: string };
  /** The record as the list answers it, once loaded. */
  stored?: StoredRow;
}

/** One data row of an uploaded sheet while it is checked. */
export interface SheetRow {
  row: number;
  body: Body;
  errs: RowFieldError[];
  /** Cells as read, by column key, so an error can quote what was written. */
  raw: Body;
  /** Cells of the export's read-only columns, by property: an update may not change them. */
  readOnlyRaw: Body;
  /** Path of the organisation the row goes to (the caller's unless its organisation column names another). */
  orgPath: string;
  /** Properties the file gave a value (a blank cell leaves a stored value as it is). */
  given: Set<string>;
  match?: RowMatch;
}
