/**
 * What the server derives after this feature's own derivers (index.ts), in order: the alarms, then
 * driving behaviour and the health index (they read the alarms). One list for the derivation in
 * the server's thread and in its own (thread/worker.ts).
 */

import type { Deriver } from './deriver';
import { behaviourDeriver } from './behaviour/deriver';

export function serverExtraDerivers(alarm: Deriver, opts: { behaviour?: boolean } = {}): Deriver[] {
  return [alarm, ...(opts.behaviour === false ? [] : [behaviourDeriver()])];
}
