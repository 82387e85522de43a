/** The alarm centre's pure parts: which types each page lists, and the colour of a level. */

import type { AlarmCategory } from '../../services/alarms';

/** The types a page's type filter offers (the server's alarm model, by category). */
export const TYPES_BY_CATEGORY: Record<AlarmCategory, readonly string[]> = {
  ai: ['Fatigue', 'FuelDrain', 'RepeatArrival', 'Skewing'],
  fence: ['FenceIn', 'FenceOut', 'AreaInOut', 'RouteInOut'],
  obd: ['Fault', 'ObdAlarm'],
  terminal: [
    'FireOn',
    'Low',
    'Crash',
    'Trail',
    'PullOut',
    'Insert',
    'Idle',
    'OfflineLongTime',
    'StopLongTime',
    'OverSpeed',
    'Sos',
    'DangerWarning',
    'GnssFault',
    'GnssAntenna',
    'DeviceFault',
    'OverSpeedWarning',
    'IllegalDriving',
    'TyrePressure',
    'BlindZone',
    'RouteTime',
    'VssFault',
    'Stolen',
    'IllegalDoorOpen',
  ],
};

export const typesOf = (category: AlarmCategory | null): readonly string[] =>
  category ? TYPES_BY_CATEGORY[category] : (Object.values(TYPES_BY_CATEGORY) as string[][]).flat();

export const LEVEL_COLOURS: Record<string, string> = { low: 'blue', medium: 'gold', high: 'orange', critical: 'red' };
