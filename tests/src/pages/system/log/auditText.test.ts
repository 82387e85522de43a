import { translator } from '../../../../../schemas/kit/catalogue';
import { detailLines, targetText } from '../../../../../src/pages/system/log/auditText';

describe('audit log texts', () => {
  const zh = translator('zh-CN');
  const en = translator('en-US');

  it('names the target by its kind and name, a deleted one by its id, free text as written', () => {
    expect(targetText({ target: '12', targetKind: 'member', targetName: '赵六' }, zh)).toBe('账号：赵六');
    expect(targetText({ target: 'vehicle:7', targetKind: 'vehicle', targetName: '沪A10137' }, zh)).toBe('车辆：沪A10137');
    expect(targetText({ target: 'vehicle:7', targetKind: 'vehicle', targetName: null }, en)).toBe('Vehicle #7 (deleted)');
    expect(targetText({ target: 'vehicles-HD', targetKind: null, targetName: null }, zh)).toBe('vehicles-HD');
    expect(targetText({ target: null, targetKind: null, targetName: null }, zh)).toBe('-');
  });

  it('reads details as labelled lines in the reader language, reasons as sentences', () => {
    expect(detailLines('{"name":"南京车队","imported":true,"added":[3,4]}', zh, 'organisation')).toEqual([
      { label: '组织名称', value: '南京车队' },
      { label: '通过导入', value: '是' },
      { label: '新增的权限', value: '3、4' },
    ]);
    expect(detailLines('{"loginName":"zhao.liu","disconnected":false}', en, 'member')).toEqual([
      { label: 'Login name', value: 'zhao.liu' },
      { label: 'Disconnected', value: 'No' },
    ]);
    expect(detailLines('oldPasswordWrong', zh, null)).toEqual([{ label: '', value: '原密码不正确' }]);
    expect(detailLines('something else', zh, null)).toEqual([{ label: '', value: 'something else' }]);
    expect(detailLines('{not json', zh, null)).toEqual([{ label: '', value: '{not json' }]);
    expect(detailLines(null, zh, null)).toEqual([]);
  });
});
