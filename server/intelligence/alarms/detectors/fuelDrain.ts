/**
 * A suspected drain (trips/fuel.ts) as its FuelDrain alarm: an instant at the report where the drain
 * first read as one. Not at the drain's own time, which moves while the level goes on falling: the
 * alarm's key must not, or one drain would be stored (and announced) again at every pass.
 */

import type { FuelEvent } from '../../trips/fuel';
import type { AlarmInterval } from '../types';

export type DrainFound = Pick<FuelEvent, 'time' | 'detectedAt' | 'amountL' | 'levelBeforeL' | 'levelAfterL' | 'latitude' | 'longitude'>;

export function drainAlarm(e: DrainFound): AlarmInterval {
  // Drains derived before detected_at was kept have none until their window is derived again.
  const at = e.detectedAt ?? e.time;
  return {
    type: 'FuelDrain',
    subject: '',
    begin: at,
    end: at,
    firedAt: at,
    latitude: e.latitude,
    longitude: e.longitude,
    value: e.amountL,
    detail: { levelBeforeL: e.levelBeforeL, levelAfterL: e.levelAfterL },
  };
}
