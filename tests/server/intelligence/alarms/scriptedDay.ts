/**
 * Scripted terminal days: a vehicle's reports built step by step (park, drive, idle…), moving
 * along its heading at its speed, for sending through the real gateway.
 */

import type { LocationInput } from '../../../../server/telematics/jt808/codec';

export interface StepOptions {
  /** Seconds between reports (default 10). */
  every?: number;
  acc?: boolean;
  /** Alarm word bits set on every report of the step. */
  alarmBits?: number[];
  /** OBD battery volts carried by every report of the step. */
  volts?: number;
  /** Trouble codes listed by every report of the step ([] clears them). */
  dtcs?: string[];
  /** Heading, degrees (default the day's current heading). */
  heading?: number;
  /** Fuel level, litres (default the day's current level; none until one is given). */
  fuelL?: number;
}

const EARTH_M_PER_DEG = 111_320;

export class ScriptedDay {
  readonly reports: LocationInput[] = [];
  private t: number;
  private lat: number;
  private lon: number;
  private heading = 90;
  private fuelL: number | undefined;

  constructor(start: string | number, at: { latitude: number; longitude: number }) {
    this.t = typeof start === 'number' ? start : Date.parse(start);
    this.lat = at.latitude;
    this.lon = at.longitude;
  }

  get time(): number {
    return this.t;
  }

  get position(): { latitude: number; longitude: number } {
    return { latitude: this.lat, longitude: this.lon };
  }

  /** Moves to a place without reporting (the next report is there). */
  jumpTo(at: { latitude: number; longitude: number }): this {
    this.lat = at.latitude;
    this.lon = at.longitude;
    return this;
  }

  /** Reports for `seconds` at `speedKmh` (0: standing), moving along the heading. */
  step(seconds: number, speedKmh: number, o: StepOptions = {}): this {
    const every = o.every ?? 10;
    if (o.heading !== undefined) this.heading = o.heading;
    if (o.fuelL !== undefined) this.fuelL = o.fuelL;
    for (let s = 0; s < seconds; s += every) {
      this.push(speedKmh, o);
      const metres = (speedKmh / 3.6) * every;
      const rad = (this.heading * Math.PI) / 180;
      this.lat += (metres * Math.cos(rad)) / EARTH_M_PER_DEG;
      this.lon += (metres * Math.sin(rad)) / (EARTH_M_PER_DEG * Math.cos((this.lat * Math.PI) / 180));
      this.t += every * 1000;
    }
    return this;
  }

  /** One report at an explicit place (border jitter), then time moves on by `every` seconds. */
  at(place: { latitude: number; longitude: number }, speedKmh: number, o: StepOptions = {}): this {
    if (o.fuelL !== undefined) this.fuelL = o.fuelL;
    this.lat = place.latitude;
    this.lon = place.longitude;
    this.push(speedKmh, o);
    this.t += (o.every ?? 10) * 1000;
    return this;
  }

  private push(speedKmh: number, o: StepOptions): void {
    const obd =
      o.volts !== undefined || o.dtcs !== undefined
        ? { ...(o.volts !== undefined ? { powerV: o.volts } : {}), ...(o.dtcs !== undefined ? { dtcs: o.dtcs } : {}) }
        : undefined;
    this.reports.push({
      time: this.t,
      latitude: Math.round(this.lat * 1e6) / 1e6,
      longitude: Math.round(this.lon * 1e6) / 1e6,
      speed: speedKmh,
      direction: this.heading,
      status: { accOn: o.acc ?? speedKmh > 0, fixed: true },
      alarm: (o.alarmBits ?? []).reduce((w, b) => (w | (1 << b)) >>> 0, 0),
      ...(obd || this.fuelL !== undefined
        ? { extras: { ...(obd ? { obd } : {}), ...(this.fuelL !== undefined ? { fuelL: this.fuelL } : {}) } }
        : {}),
    });
  }
}

/** A point `metres` east of `p`. */
export const east = (p: { latitude: number; longitude: number }, metres: number) => ({
  latitude: p.latitude,
  longitude: p.longitude + metres / (EARTH_M_PER_DEG * Math.cos((p.latitude * Math.PI) / 180)),
});

const medianOf = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * The index of the report at which a stationary run with the ACC off, beginning at report `first`,
 * first reads as a drain of `thresholdL` as the trips deriver measures it (trips/fuel.ts): the
 * median of its last few levels that far below the median of its first few (three each, fewer
 * while it has fewer than six). -1 when it never does.
 */
export function drainReadAt(reports: readonly LocationInput[], first: number, thresholdL: number): number {
  const levels: number[] = [];
  for (let e = first; e < reports.length; e++) {
    const level = (reports[e].extras as { fuelL?: number } | undefined)?.fuelL;
    if (level === undefined) continue;
    levels.push(level);
    const k = Math.min(3, levels.length >> 1);
    if (k && medianOf(levels.slice(0, k)) - medianOf(levels.slice(-k)) >= thresholdL) return e;
  }
  return -1;
}
