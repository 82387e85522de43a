/** What "moving" and "the same place" mean for the report-driven detectors. */

import distance from '@turf/distance';
import type { DerivePosition } from '../../samples';

/** Below this speed (km/h) a vehicle is not moving (Wialon's default minimum moving speed). */
export const MOVING_KMH = 5;
/** GNSS jitter: a parked vehicle's fixes wander within this many metres. */
export const JITTER_M = 100;

export const isMoving = (p: Pick<DerivePosition, 'speed'>) => p.speed >= MOVING_KMH;

/** Great-circle distance in metres. */
export const metresBetween = (a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number =>
  distance([a.longitude, a.latitude], [b.longitude, b.latitude], { units: 'kilometers' }) * 1000;

export const MINUTE = 60_000;
export const HOUR = 3_600_000;
