import { translator } from '../../../../schemas/kit/catalogue';
import { exportFileName, fileStamp, safeFileName, templateFileName } from '../../../../src/components/sheet/fileNames';
import { fileProblem, humanSize, SHEET_MAX_BYTES } from '../../../../src/components/sheet/limits';

describe('file names', () => {
  const now = new Date(2026, 10, 22, 9, 5, 7);

  it('names exports by entity, mode and local time in the user language', () => {
    expect(fileStamp(now)).toBe('20261122-090507');
    expect(exportFileName(translator('zh-CN'), '车辆', 'all', now)).toBe('车辆_全部_20261122-090507.xlsx');
    expect(exportFileName(translator('zh-CN'), '终端', 'current', now)).toBe('终端_当前页_20261122-090507.xlsx');
    expect(exportFileName(translator('en-US'), 'Vehicles', 'current', now)).toBe('Vehicles_current-page_20261122-090507.xlsx');
    expect(templateFileName(translator('zh-CN'), '终端', 'import')).toBe('终端导入模板.xlsx');
    expect(templateFileName(translator('ja-JP'), '端末', 'renew')).toBe('端末更新テンプレート.xlsx');
  });

  it('keeps characters file systems refuse out of names', () => {
    expect(safeFileName('a/b\\c:d*e?f"g<h>i|j\u0001k')).toBe('a_b_c_d_e_f_g_h_i_j_k');
    expect(safeFileName('  ')).toBe('_');
    expect(exportFileName(translator('zh-CN'), 'A/B', 'all', now)).toBe('A_B_全部_20261122-090507.xlsx');
  });
});

describe('chosen file', () => {
  it('accepts an xlsx up to the server limit, whatever the case of its extension', () => {
    expect(fileProblem({ name: 'rows.xlsx', size: 1 })).toBeNull();
    expect(fileProblem({ name: 'ROWS.XLSX', size: SHEET_MAX_BYTES })).toBeNull();
  });

  it('refuses other types, empty files and files over the limit, with message keys', () => {
    expect(fileProblem({ name: 'rows.xls', size: 10 })).toEqual({ key: 'console.sheet.notXlsx' });
    expect(fileProblem({ name: 'rows.txt', size: 10 })).toEqual({ key: 'console.sheet.notXlsx' });
    expect(fileProblem({ name: 'Rows.CSV', size: 10 })).toBeNull();
    expect(fileProblem({ name: 'xlsx', size: 10 })).toEqual({ key: 'console.sheet.notXlsx' });
    expect(fileProblem({ name: 'rows.xlsx', size: 0 })).toEqual({ key: 'console.sheet.emptyFile' });
    expect(fileProblem({ name: 'rows.xlsx', size: SHEET_MAX_BYTES + 1 })).toEqual({
      key: 'console.sheet.tooLarge',
      params: { limit: '5 MB' },
    });
    expect(translator('zh-CN')('console.sheet.tooLarge', { limit: humanSize(SHEET_MAX_BYTES) })).toBe('文件不能超过5 MB');
  });
});
