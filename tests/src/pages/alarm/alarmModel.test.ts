import { numberFormatter } from '../../../../src/components/charts/numberFormat';
import { alarmValueText, policyThresholdText } from '../../../../src/pages/alarm/alarmModel';
import { alarmPagePath, COUNT_LINKS } from '../../../../src/pages/dashboard/dashboardModel';
import { translate } from '../../../../schemas/kit/catalogue';

describe('alarm values and links', () => {
  const zh = (key: string) => translate('zh-CN', key);
  const en = (key: string) => translate('en-US', key);
  const fmt = numberFormatter('zh-CN');

  it('writes a value with the unit of its type, rounded for people', () => {
    expect(alarmValueText({ type: 'OverSpeed', value: 249.4 }, fmt, zh)).toBe('249 km/h');
    expect(alarmValueText({ type: 'Low', value: 11.2345 }, fmt, zh)).toBe('11.23 V');
    expect(alarmValueText({ type: 'FuelDrain', value: 12.25 }, fmt, zh)).toBe('12.3 L');
    expect(alarmValueText({ type: 'Idle', value: 7 }, fmt, zh)).toBe('7 分钟');
    expect(alarmValueText({ type: 'Idle', value: 7 }, fmt, en)).toBe('7 min');
    expect(alarmValueText({ type: 'OfflineLongTime', value: 30.25 }, fmt, zh)).toBe('30.3 小时');
    expect(alarmValueText({ type: 'Trail', value: 1234 }, fmt, zh)).toBe('1,234 米');
    expect(alarmValueText({ type: 'RepeatArrival', value: 3 }, fmt, zh)).toBe('3 次');
    expect(alarmValueText({ type: 'Crash', value: null }, fmt, zh)).toBe('');
  });

  it('writes a policy threshold with the unit of what it measures', () => {
    expect(policyThresholdText('OverSpeed', 70, fmt, zh)).toBe('70 km/h');
    expect(policyThresholdText('Low', 11.5, fmt, en)).toBe('11.5 V');
    // A type whose threshold has no fixed measure (durations are durationMinutes): the number alone.
    expect(policyThresholdText('Fault', 3, fmt, zh)).toBe('3');
  });

  it('leads every category to a page that lists it, and the alarming count to every current alarm', () => {
    expect(alarmPagePath('terminal')).toBe('/alarm/terminal');
    expect(alarmPagePath('fence')).toBe('/alarm/fence');
    expect(alarmPagePath('obd')).toBe('/alarm/obd');
    expect(alarmPagePath('ai')).toBe('/alarm/ai');
    expect(alarmPagePath('safety')).toBe('/alarm/safety');
    expect(COUNT_LINKS.alarming).toBe('/alarm/all');
  });
});
