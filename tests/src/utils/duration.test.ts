import { durationText, formatDuration } from '../../../src/utils/duration';
import { translator } from '../../../schemas/kit/catalogue';

describe('a length of time as people read it', () => {
  it('uses minutes below an hour, hours and minutes below a day, days and hours beyond', () => {
    expect(durationText(0)).toEqual({ key: 'console.duration.minutes', values: { m: 0 } });
    expect(durationText(59 * 60)).toEqual({ key: 'console.duration.minutes', values: { m: 59 } });
    expect(durationText(3600)).toEqual({ key: 'console.duration.hoursMinutes', values: { h: 1, m: 0 } });
    expect(durationText(23 * 3600 + 29 * 60)).toEqual({ key: 'console.duration.hoursMinutes', values: { h: 23, m: 29 } });
    // 2,667 minutes: the stop that read "2667 分钟".
    expect(durationText(2667 * 60)).toEqual({ key: 'console.duration.daysHours', values: { d: 1, h: 20 } });
    expect(durationText(-5)).toEqual({ key: 'console.duration.minutes', values: { m: 0 } });
    expect(durationText(Number.NaN)).toEqual({ key: 'console.duration.minutes', values: { m: 0 } });
  });

  it('rounds at the unit it shows last, never showing 60 minutes or 24 hours', () => {
    expect(durationText(59 * 60 + 40)).toEqual({ key: 'console.duration.hoursMinutes', values: { h: 1, m: 0 } });
    expect(durationText(24 * 3600 - 60)).toEqual({ key: 'console.duration.daysHours', values: { d: 1, h: 0 } });
  });

  it('reads in each of the four languages', () => {
    const s = 2667 * 60;
    expect(formatDuration(s, translator('zh-CN'))).toBe('1 天 20 小时');
    expect(formatDuration(s, translator('en-US'))).toBe('1 d 20 h');
    expect(formatDuration(s, translator('es-ES'))).toBe('1 d 20 h');
    expect(formatDuration(s, translator('ja-JP'))).toBe('1 日 20 時間');
    expect(formatDuration(95 * 60, translator('zh-CN'))).toBe('1 小时 35 分钟');
  });
});
