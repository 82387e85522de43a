/**
 * The derivation engine on one page: every deriver, in the order a pass runs them. Each pass hands
 * every deriver the same window of one vehicle's stored reports, in this order, in one transaction
 * (pipeline.ts), so a deriver may read what the ones before it rebuilt a moment ago. A deriver not
 * listed here is never run by the server, the derivation thread or `npm run derive`
 * (tests/server/intelligence/structure.test.ts checks that every deriver is).
 */

import type { Deriver } from './deriver';
import { tripDeriver, type TripDeriverOptions } from './trips/tripDeriver';
import { ledgerDeriver } from './ledger/ledgerDeriver';
import { trackMinuteDeriver } from './track/minuteDeriver';
import { alarmDeriver, type AlarmDeriverOptions } from './alarms/deriver';
import { behaviourDeriver } from './behaviour/deriver';

export interface EngineOptions {
  /** The alarm deriver's options (where new alarms are announced); null: no alarms, and so no behaviour either (it reads them). */
  alarms: AlarmDeriverOptions | null;
  /** Driving behaviour and the health index (default: on while the alarms are). */
  behaviour?: boolean;
  /** The trips deriver's options (where closed trips are announced). */
  trips?: TripDeriverOptions;
}

export function engineDerivers(opts: EngineOptions): Deriver[] {
  const alarms = opts.alarms && alarmDeriver(opts.alarms);
  return [
    // Trips, stops and fuel events (fills, suspected drains), from the positions.
    tripDeriver(opts.trips),
    // The daily ledger: one row per vehicle and local day, from the trips and fuel events just rebuilt.
    ledgerDeriver,
    // The replay's minute levels (one- and ten-minute buckets of the track).
    trackMinuteDeriver(),
    // Alarms: the detectors over the reports, with the trips' suspected drains (FuelDrain).
    ...(alarms ? [alarms] : []),
    // Driving behaviour and the health index per local day: they count the alarms just rebuilt.
    ...(alarms && opts.behaviour !== false ? [behaviourDeriver()] : []),
  ];
}
