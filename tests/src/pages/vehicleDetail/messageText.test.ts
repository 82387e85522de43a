import { translator } from '../../../../schemas/kit/catalogue';
import { numberFormatter } from '../../../../src/components/charts/numberFormat';
import { bitLabels, faultTitle, obdContent, subtypeLabel } from '../../../../src/pages/vehicleDetail/messageText';

const zh = translator('zh-CN');
const fmt = numberFormatter('zh-CN');

describe('what the vehicle detail shows of stored reports', () => {
  it('names alarm and status bits, never the raw names', () => {
    expect(bitLabels(zh, 'status', ['accOn', 'fixed', 'gps'])).toEqual(['ACC 开', '已定位', '使用 GPS']);
    expect(bitLabels(zh, 'alarm', ['overspeed'])).toEqual([zh('console.jt808.alarm.overspeed')]);
    expect(bitLabels(translator('en-US'), 'status', ['accOn'])[0]).not.toBe('accOn');
    // A bit the catalogue does not know yet stays as the terminal sent it.
    expect(bitLabels(zh, 'status', ['vendorBit9'])).toEqual(['vendorBit9']);
  });

  it('names OBD record kinds in every language', () => {
    expect(subtypeLabel(zh, 1)).toBe('数据流');
    expect(subtypeLabel(zh, 2)).toBe('故障码记录');
    expect(subtypeLabel(translator('ja-JP'), 2)).toBe('故障コード');
    expect(subtypeLabel(translator('es-ES'), 0x7f)).toBe('Otro registro (127)');
  });

  it('shows readings labelled, with units and rounded, not as JSON', () => {
    const text = obdContent(zh, fmt, {
      readings: { rpm: 1523.4, coolantTempC: 86.2, speedKmh: 59.599998474121094, fuelLevel: 41.256 },
      detail: null,
      dtcCount: 0,
    });
    expect(text).toEqual(['发动机转速（rpm） 1,523', '车速（km/h） 59.6', '冷却液温度（°C） 86', '油位 41.3']);
    expect(text.join('')).not.toMatch(/[{}"]/);
    // A trouble-code record with no readings says how many codes it carries; an empty one nothing.
    expect(obdContent(zh, fmt, { readings: null, detail: null, dtcCount: 2 })).toEqual(['2 个故障码']);
    expect(obdContent(zh, fmt, { readings: null, detail: null, dtcCount: 0 })).toEqual([]);
    expect(obdContent(zh, fmt, { readings: null, detail: { vin: 'LFV2A21K6D4123456' }, dtcCount: 0 })).toEqual([
      '车辆识别代码（VIN） LFV2A21K6D4123456',
    ]);
  });

  it("names a fault by its code and the expert library's name", () => {
    expect(faultTitle(zh, { type: 'Fault', detail: { code: 'P0301', name: '1缸失火' } })).toBe('P0301 · 1缸失火');
    expect(faultTitle(zh, { type: 'Fault', detail: { code: 'P1234' } })).toBe(`P1234 · ${zh('alarm.types.Fault')}`);
    expect(faultTitle(zh, { type: 'Fault', detail: null })).toBe(zh('alarm.types.Fault'));
  });
});
