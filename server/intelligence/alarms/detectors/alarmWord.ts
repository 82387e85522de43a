/**
 * The terminal's own alarms: every bit of the 0x0200 alarm word mapped to an alarm type
 * (reference/fleet-intelligence.md). A bit's alarm lasts while the bit stays set and needs no
 * policy; power restored after a power cut (bit 8 clearing) is an Insert.
 */

import type { DerivePosition } from '../../deriver';
import type { AlarmInterval, AlarmType } from '../types';

export const ALARM_BIT_TYPES: readonly AlarmType[] = [
  'Sos', // 0 emergency
  'OverSpeed', // 1
  'Fatigue', // 2
  'DangerWarning', // 3
  'GnssFault', // 4
  'GnssAntenna', // 5 antenna open / cut
  'GnssAntenna', // 6 antenna short
  'Low', // 7 main power under-voltage
  'PullOut', // 8 main power down
  'DeviceFault', // 9 LCD
  'DeviceFault', // 10 TTS
  'DeviceFault', // 11 camera
  'DeviceFault', // 12 IC card
  'OverSpeedWarning', // 13
  'Fatigue', // 14 fatigue warning
  'IllegalDriving', // 15 (2019)
  'TyrePressure', // 16 (2019)
  'BlindZone', // 17 (2019) right-turn blind zone
  'Fatigue', // 18 daily driving overtime
  'StopLongTime', // 19 overtime parking
  'AreaInOut', // 20
  'RouteInOut', // 21
  'RouteTime', // 22
  'Skewing', // 23 route deviation
  'VssFault', // 24
  'FuelDrain', // 25 fuel abnormal
  'Stolen', // 26
  'FireOn', // 27 illegal ignition
  'Trail', // 28 illegal displacement (towing)
  'Crash', // 29 collision
  'Crash', // 30 rollover
  'IllegalDoorOpen', // 31
];

const POWER_DOWN_BIT = 8;

/** A bit's interval as it opens: from a report that sets it, or carried open from an earlier pass. */
function opening(
  bit: number,
  begin: number,
  firedAt: number,
  at: { latitude: number | null; longitude: number | null },
  speed: number | null,
): AlarmInterval {
  return {
    type: ALARM_BIT_TYPES[bit],
    subject: '',
    begin,
    end: null,
    firedAt,
    latitude: at.latitude,
    longitude: at.longitude,
    // The overspeed bit's value is its peak speed.
    value: bit === 1 ? speed : null,
    detail: { sources: [`bit:${bit}`] },
  };
}

/**
 * One interval per bit and run of reports carrying it; merged by type later. `carried`: alarms open
 * before these reports (carry.ts), each with the bits it came from, which are taken as still set
 * from its begin on.
 */
export function alarmWordIntervals(
  positions: readonly DerivePosition[],
  carried: ReadonlyArray<{ alarm: AlarmInterval; bits: readonly number[] }> = [],
): AlarmInterval[] {
  const out: AlarmInterval[] = [];
  const open = new Map<number, AlarmInterval>();
  // Bits with an open interval: a report changes only the bits it sets or that were open, and most
  // reports set none (a pass runs this over every report of its windows).
  let openBits = 0;
  for (const { alarm, bits } of carried)
    for (const bit of bits) {
      if (ALARM_BIT_TYPES[bit] !== alarm.type || open.has(bit)) continue;
      open.set(bit, opening(bit, alarm.begin, alarm.firedAt, alarm, alarm.value));
      openBits = (openBits | (1 << bit)) >>> 0;
    }
  for (const p of positions) {
    const word = p.alarm >>> 0;
    for (let visit = (word | openBits) >>> 0; visit !== 0; visit = (visit & (visit - 1)) >>> 0) {
      const bit = 31 - Math.clz32(visit & -visit);
      const set = ((word >>> bit) & 1) === 1;
      const cur = open.get(bit);
      if (set && !cur) {
        open.set(bit, opening(bit, p.time, p.time, p, p.speed));
        openBits = (openBits | (1 << bit)) >>> 0;
      } else if (set && cur && bit === 1) {
        cur.value = Math.max(cur.value ?? 0, p.speed);
      } else if (!set && cur) {
        cur.end = p.time;
        out.push(cur);
        open.delete(bit);
        openBits = (openBits & ~(1 << bit)) >>> 0;
        if (bit === POWER_DOWN_BIT)
          out.push({
            type: 'Insert',
            subject: '',
            begin: p.time,
            end: p.time,
            firedAt: p.time,
            latitude: p.latitude,
            longitude: p.longitude,
            value: null,
            detail: { sources: [`bit:${bit}`] },
          });
      }
    }
  }
  return [...out, ...open.values()];
}
