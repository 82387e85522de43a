import type { RowPlan, SheetReport } from '../../services/sheet';

export type { SheetReport } from '../../services/sheet';

/** One line of the error table: a field of a spreadsheet row and what is wrong with it. */
export interface ErrorLine {
  key: string;
  /** The spreadsheet's row number (the header is row 1), as the user sees it in Excel. */
  row: number;
  field: string;
  fieldLabel: string;
  message: string;
}

/** Whether an answer body is a sheet report (a 400 of `import` carries one; other 400s do not). */
export function isSheetReport(data: unknown): data is SheetReport {
  const r = data as SheetReport | null;
  return !!r && typeof r === 'object' && typeof r.message === 'string' && Array.isArray(r.rows) && typeof r.total === 'number';
}

/**
 * The report's errors as table lines, row by row in file order. `labelOf` names a field in the
 * user's language (the messages already do; the column lets a user scan by field).
 */
export function errorLines(report: SheetReport, labelOf: (field: string) => string): ErrorLine[] {
  return [...report.rows]
    .sort((a, b) => a.row - b.row)
    .flatMap((r) =>
      r.errors.map((e, i) => ({
        key: `${r.row}:${e.field}:${i}`,
        row: r.row,
        field: e.field,
        fieldLabel: e.field ? labelOf(e.field) : '',
        message: e.message,
      })),
    );
}

/** One line of the preview's table: a row that updates a stored record, the key that named it and what changes. */
export interface UpdateLine {
  key: string;
  row: number;
  /** The matched key as the user reads it: its fields' labels and the values the row gave. */
  matched: string;
  changed: string;
}

/** The rows of an import's plan that update a record, in file order, their fields named by `labelOf`. */
export function updateLines(
  report: SheetReport,
  labelOf: (field: string) => string,
  separator: string,
  keyText: (fields: string, value: string) => string,
): UpdateLine[] {
  return (report.plan ?? [])
    .filter((p): p is RowPlan & { key: NonNullable<RowPlan['key']> } => p.action === 'update' && !!p.key)
    .sort((a, b) => a.row - b.row)
    .map((p) => ({
      key: String(p.row),
      row: p.row,
      matched: keyText(p.key.fields.map(labelOf).join(separator), p.key.value),
      changed: (p.changed ?? []).map(labelOf).join(separator),
    }));
}

/** A report's table of lines (errors, updates): ten a page, and no pager for ten or fewer. */
export const linesPagination = (count: number) => (count > 10 ? { pageSize: 10, showSizeChanger: false } : false);
