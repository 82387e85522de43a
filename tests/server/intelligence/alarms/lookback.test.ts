import { lookbackMs } from '../../../../server/intelligence/alarms/deriver';
import type { AlarmPolicy, PolicySet } from '../../../../server/intelligence/alarms/policies';

const MIN = 60_000;
const HOUR = 60 * MIN;
const policies = (...list: Array<Partial<AlarmPolicy> & Pick<AlarmPolicy, 'alarmType'>>): PolicySet =>
  new Map(list.map((p, i) => [p.alarmType, { id: i + 1, orgId: 1, threshold: null, durationMinutes: null, params: {}, ...p }]));

/** How far back a window is read for a vehicle's policies: as far as its longest rule looks, plus a minute. */
describe('lookbackMs', () => {
  it('reads back a RepeatArrival window as the rule counts it: its hours, its minutes, or the 24 h default', () => {
    expect(lookbackMs(policies({ alarmType: 'RepeatArrival', params: { windowHours: 48 } }))).toBe(48 * HOUR + MIN);
    // The policy's minutes are its window when it has no hours: an hour, not the default day.
    expect(lookbackMs(policies({ alarmType: 'RepeatArrival', durationMinutes: 60 }))).toBe(61 * MIN);
    expect(lookbackMs(policies({ alarmType: 'RepeatArrival' }))).toBe(24 * HOUR + MIN);
  });

  it('takes the longest rule of the set', () => {
    expect(
      lookbackMs(policies({ alarmType: 'RepeatArrival', durationMinutes: 60 }, { alarmType: 'StopLongTime', durationMinutes: 180 })),
    ).toBe(181 * MIN);
    expect(
      lookbackMs(policies({ alarmType: 'Fatigue', params: { hours: 4, restMinutes: 20 } }, { alarmType: 'Idle', durationMinutes: 10 })),
    ).toBe(4 * HOUR + 21 * MIN);
    expect(lookbackMs(policies())).toBe(MIN);
  });
});
