import { errorLines, isSheetReport, type SheetReport } from '../../../../src/components/sheet/report';
import { initialUpload, uploadStep, type UploadState } from '../../../../src/components/sheet/uploadState';

const report = (rows: SheetReport['rows'], total = 4): SheetReport => ({
  success: !rows.length,
  message: rows.length ? `${rows.length}行数据有误，未导入任何数据` : `全部${total}行数据有效`,
  total,
  invalid: rows.length,
  rows,
});
const bad = report([
  { row: 5, errors: [{ field: 'terminalNo', key: 'sheet.duplicateInFile', message: '终端编号与第2行重复' }] },
  { row: 3, errors: [{ field: 'terminalNo', key: 'validation.required', message: '终端编号不能为空' }] },
  {
    row: 4,
    errors: [
      { field: 'sim', key: 'validation.pattern', message: 'SIM 卡号格式不正确' },
      { field: 'debug', key: 'validation.type', message: '调试的类型不正确' },
    ],
  },
]);

describe('import report', () => {
  it('lists every error by spreadsheet row, then field, with the field label', () => {
    const labels: Record<string, string> = { terminalNo: '终端编号', sim: 'SIM 卡号', debug: '调试' };
    expect(errorLines(bad, (f) => labels[f]).map((l) => [l.row, l.fieldLabel, l.message])).toEqual([
      [3, '终端编号', '终端编号不能为空'],
      [4, 'SIM 卡号', 'SIM 卡号格式不正确'],
      [4, '调试', '调试的类型不正确'],
      [5, '终端编号', '终端编号与第2行重复'],
    ]);
    const keys = errorLines(bad, (f) => f).map((l) => l.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(errorLines(report([{ row: 2, errors: [{ field: '', key: 'x', message: 'whole row' }] }]), () => 'never')[0].fieldLabel).toBe('');
  });

  it('tells a report from other error bodies', () => {
    expect(isSheetReport(bad)).toBe(true);
    expect(isSheetReport({ success: false, code: 'sheet.notXlsx', message: '只能上传 xlsx 文件' })).toBe(false);
    expect(isSheetReport(null)).toBe(false);
    expect(isSheetReport('text')).toBe(false);
  });
});

describe('upload dialog steps', () => {
  const file = new File(['x'], 'rows.xlsx');
  const run = (...events: Parameters<typeof uploadStep>[1][]) => events.reduce<UploadState>(uploadStep, initialUpload);

  it('goes choose → checking → errors, or → valid → applying', () => {
    expect(run({ type: 'chosen', file })).toEqual({ phase: 'checking', file });
    expect(run({ type: 'chosen', file }, { type: 'checked', report: bad })).toEqual({ phase: 'invalid', file, report: bad });
    const ok = report([]);
    expect(run({ type: 'chosen', file }, { type: 'checked', report: ok })).toEqual({ phase: 'valid', file, report: ok });
    expect(run({ type: 'chosen', file }, { type: 'checked', report: ok }, { type: 'apply' })).toEqual({
      phase: 'applying',
      file,
      report: ok,
    });
    // The store refused rows that changed since the check: their errors are shown, nothing is stored.
    expect(run({ type: 'chosen', file }, { type: 'checked', report: ok }, { type: 'apply' }, { type: 'checked', report: bad }).phase).toBe(
      'invalid',
    );
  });

  it('shows a refused file or a failed call, and lets the user choose again', () => {
    expect(run({ type: 'refused', problem: '只能上传 xlsx 文件' })).toEqual({ phase: 'choose', problem: '只能上传 xlsx 文件' });
    expect(run({ type: 'chosen', file }, { type: 'failed', message: '无法识别的列：颜色' })).toEqual({
      phase: 'failed',
      file,
      message: '无法识别的列：颜色',
    });
    expect(run({ type: 'chosen', file }, { type: 'failed', message: 'x' }, { type: 'chosen', file }).phase).toBe('checking');
    expect(run({ type: 'chosen', file }, { type: 'checked', report: bad }, { type: 'chosen', file }).phase).toBe('checking');
    expect(run({ type: 'chosen', file }, { type: 'checked', report: bad }, { type: 'reset' })).toEqual(initialUpload);
  });

  it('ignores what makes no sense in a step: confirming invalid rows, stale answers, a second file while busy', () => {
    expect(run({ type: 'chosen', file }, { type: 'checked', report: bad }, { type: 'apply' }).phase).toBe('invalid');
    expect(run({ type: 'apply' })).toEqual(initialUpload);
    expect(run({ type: 'checked', report: bad })).toEqual(initialUpload);
    expect(run({ type: 'failed', message: 'late' })).toEqual(initialUpload);
    const other = new File(['y'], 'other.xlsx');
    expect(run({ type: 'chosen', file }, { type: 'chosen', file: other })).toEqual({ phase: 'checking', file });
    expect(run({ type: 'chosen', file }, { type: 'refused', problem: 'p' }).phase).toBe('checking');
  });
});
