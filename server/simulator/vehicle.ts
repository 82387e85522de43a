/**
 * A simulated vehicle: drives a city street grid (straight blocks, turns at intersections, stops
 * at lights, parks with the ignition off), burns and refuels fuel, adds mileage, and now and then
 * raises an alarm or a diagnostic trouble code. Deterministic for a given seed.
 */

import { coolantTempC, supplyV } from './engineReadings';
import type { LocationInput, ObdRecordInput } from '../telematics/jt808/codec';

export interface City {
  name: string;
  latitude: number;
  longitude: number;
  /** Street grid rotation, degrees. */
  gridAngle: number;
  /** How far from the centre the town's vehicles drive (they turn back beyond it): inside it is all land. */
  radiusKm: number;
  /** Headings (degrees from north) a long haul out of town may take and stay on land for 350 km. */
  inland: readonly number[];
}

/**
 * Areas of the demo organisations' fleets. Each centre and radius keeps the streets on land:
 * Hangzhou's north of West Lake and the Qiantang, Shenzhen's north of the bay and the border.
 */
export const CITIES: readonly City[] = [
  { name: 'shanghai', latitude: 31.2304, longitude: 121.4737, gridAngle: 12, radiusKm: 12, inland: [225, 300, 315] },
  { name: 'hangzhou', latitude: 30.35, longitude: 120.17, gridAngle: -8, radiusKm: 7, inland: [230, 270, 340] },
  { name: 'shenzhen', latitude: 22.65, longitude: 114.05, gridAngle: 20, radiusKm: 7, inland: [0, 45, 315] },
];

const KM_PER_DEG_LAT = 111.32;
export const DTC_POOL = ['P0301', 'P0420', 'P0171', 'P0128', 'P0562', 'U0100'];
/** A PID record (0x0900) every this many reports while the ignition is on. */
const OBD_EVERY = 30;

/** A PID value as `bytes` big-endian bytes of hex. */
const pidHex = (value: number, bytes: number) =>
  Math.max(0, Math.round(value))
    .toString(16)
    .padStart(bytes * 2, '0')
    .slice(-bytes * 2);

/** Small seeded PRNG (mulberry32): the same seed drives the same route. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Phase = 'driving' | 'light' | 'parked';

/** Where a vehicle is when its run starts (its newest stored report): a new run goes on from there, never jumps. */
export interface VehicleStart {
  latitude: number;
  longitude: number;
  mileageKm: number | null;
  fuelL: number | null;
}

export class SimVehicle {
  private readonly random: () => number;
  private lat: number;
  private lon: number;
  private heading: number;
  private speed = 0;
  private targetSpeed = 40;
  private blockLeftKm: number;
  private phase: Phase = 'driving';
  private phaseLeftS = 0;
  private readonly tankL: number;
  private fuelL: number;
  private mileageKm: number;
  private dtcs: string[] = [];
  /** The DTC list last sent in an OBD record, and reports since the last PID record. */
  private sentDtcs = '';
  private sincePids = 0;
  /** When the ignition last went on or off, for the coolant and supply readings (engineReadings.ts). */
  private lastAcc: boolean | null = null;
  private accChangedAt = 0;
  /** This vehicle's own offset of its readings (°C, tenths of a volt), from its seed. */
  private readonly readingOffset: number;

  constructor(
    seed: number,
    readonly city: City,
    start?: VehicleStart,
  ) {
    this.random = rng(seed);
    // From the seed itself, not the generator: the routes draw exactly what they drew before.
    this.readingOffset = ((seed * 7919) % 7) - 3;
    const r = Math.sqrt(this.random()) * city.radiusKm * 0.8;
    const a = this.random() * 2 * Math.PI;
    this.lat = city.latitude + (r * Math.cos(a)) / KM_PER_DEG_LAT;
    this.lon = city.longitude + (r * Math.sin(a)) / (KM_PER_DEG_LAT * Math.cos((city.latitude * Math.PI) / 180));
    this.heading = (city.gridAngle + 90 * Math.floor(this.random() * 4) + 360) % 360;
    this.blockLeftKm = 0.3 + this.random() * 1.5;
    this.tankL = 400;
    this.fuelL = 120 + this.random() * 260;
    this.mileageKm = 10_000 + Math.floor(this.random() * 90_000);
    // Drawn above all the same, so a run from a start takes the route it would have taken.
    if (start) {
      this.lat = start.latitude;
      this.lon = start.longitude;
      if (start.mileageKm !== null) this.mileageKm = start.mileageKm;
      if (start.fuelL !== null) this.fuelL = Math.min(this.tankL, Math.max(0, start.fuelL));
    }
  }

  /** Advances dtS seconds and returns the report for `now`. */
  step(dtS: number, now: number): LocationInput {
    this.advance(dtS);
    return this.report(now);
  }

  /** The report for `now` without moving (answers a location query). */
  report(now: number): LocationInput {
    const acc = this.phase !== 'parked';
    const sinceS = this.sinceIgnition(acc, now);
    let alarm = 0;
    if (this.speed > 80) alarm |= 1 << 1; // overspeed
    if (this.random() < 0.0005) alarm |= 1 << 7; // main power under-voltage
    if (this.random() < 0.002 && this.dtcs.length < 3) this.dtcs.push(DTC_POOL[Math.floor(this.random() * DTC_POOL.length)]);
    else if (this.dtcs.length && this.random() < 0.002) this.dtcs = []; // repaired
    return {
      alarm,
      status: { accOn: acc, fixed: true, gps: true, beidou: true, moving: this.speed > 0 },
      latitude: +this.lat.toFixed(6),
      longitude: +this.lon.toFixed(6),
      altitude: 8 + Math.round(this.random() * 6),
      speed: +this.speed.toFixed(1),
      direction: Math.round(this.heading) % 360,
      time: Math.floor(now / 1000) * 1000, // BCD time has whole seconds
      extras: {
        mileageKm: +this.mileageKm.toFixed(1),
        fuelL: +this.fuelL.toFixed(1),
        signalStrength: 20 + Math.floor(this.random() * 11),
        satellites: 8 + Math.floor(this.random() * 12),
        obd: {
          rpm: acc ? Math.round(750 + this.speed * 28) : 0,
          coolantTempC: coolantTempC(acc, sinceS, this.speed, now, this.readingOffset),
          powerV: supplyV(acc, sinceS, now, this.readingOffset),
          ...(this.dtcs.length ? { dtcs: [...this.dtcs] } : {}),
        },
      },
    };
  }

  /**
   * The OBD record (0x0900) the terminal sends beside its report at `now`, if any: the trouble
   * codes whenever they change (an empty list once repaired), else engine readings now and then
   * while the ignition is on. Draws no random numbers, so routes stay as they were.
   */
  obdRecord(now: number): ObdRecordInput | null {
    const time = Math.floor(now / 1000) * 1000;
    const position = {
      status: { raw: this.phase !== 'parked' ? 0b11 : 0b10 },
      latitude: +this.lat.toFixed(6),
      longitude: +this.lon.toFixed(6),
    };
    const key = this.dtcs.join(',');
    if (key !== this.sentDtcs) {
      this.sentDtcs = key;
      const dtcs = this.dtcs.map((text) => ({ systemId: 0, dtc: DTC_POOL.indexOf(text) + 1, status: 1, text }));
      return { time, subtype: 0x02, dtcs, position };
    }
    if (this.phase === 'parked' || ++this.sincePids < OBD_EVERY) return null;
    this.sincePids = 0;
    const pids = [
      { id: 0x0102, hex: pidHex(this.mileageKm * 10, 4) },
      { id: 0x052a, hex: pidHex((this.fuelL / this.tankL) * 10_000, 2) },
      { id: 0x0535, hex: pidHex(this.speed * 10, 2) },
      { id: 0x0536, hex: pidHex(750 + this.speed * 28, 2) },
      {
        id: 0x052d,
        hex: pidHex(Math.round(coolantTempC(true, this.sinceIgnition(true, now), this.speed, now, this.readingOffset)) + 40, 1),
      },
    ];
    return { time, subtype: 0x01, pids, position };
  }

  /** Seconds since the ignition last changed to `acc` (the first report starts the count). */
  private sinceIgnition(acc: boolean, now: number): number {
    if (this.lastAcc !== acc) {
      // A vehicle first seen running has been running a while (the demo starts mid-day).
      this.accChangedAt = this.lastAcc === null ? now - 3_600_000 : now;
      this.lastAcc = acc;
    }
    return Math.max(0, (now - this.accChangedAt) / 1000);
  }

  private advance(dtS: number): void {
    if (this.phase !== 'driving') {
      this.phaseLeftS -= dtS;
      if (this.phase === 'light') this.fuelL -= (2 / 3600) * dtS; // idling
      if (this.phaseLeftS > 0) return;
      this.phase = 'driving';
    }
    // Ease towards the target speed, as traffic allows.
    this.speed += Math.max(-15, Math.min(8, this.targetSpeed - this.speed)) * Math.min(1, dtS / 5);
    this.speed = Math.max(0, this.speed);
    const km = (this.speed * dtS) / 3600;
    this.move(km);
    this.mileageKm += km;
    this.fuelL -= km * 0.32;
    if (this.fuelL < this.tankL * 0.12) this.fuelL = this.tankL * (0.85 + this.random() * 0.15); // refuelled
    this.blockLeftKm -= km;
    if (this.blockLeftKm <= 0) this.intersection();
  }

  private move(km: number): void {
    const h = (this.heading * Math.PI) / 180;
    this.lat += (km * Math.cos(h)) / KM_PER_DEG_LAT;
    this.lon += (km * Math.sin(h)) / (KM_PER_DEG_LAT * Math.cos((this.lat * Math.PI) / 180));
  }

  private intersection(): void {
    const r = this.random();
    this.blockLeftKm = 0.2 + this.random() * 1.8;
    this.targetSpeed = r < 0.15 ? 70 + this.random() * 20 : 25 + this.random() * 35; // arterial or street
    if (r < 0.25) {
      this.phase = 'light';
      this.phaseLeftS = 10 + this.random() * 50;
      this.speed = 0;
    } else if (r < 0.27) {
      this.phase = 'parked';
      this.phaseLeftS = 120 + this.random() * 600;
      this.speed = 0;
    }
    // Turn left or right sometimes; always turn back towards the centre when far out.
    const dLat = (this.lat - this.city.latitude) * KM_PER_DEG_LAT;
    const dLon = (this.lon - this.city.longitude) * KM_PER_DEG_LAT * Math.cos((this.lat * Math.PI) / 180);
    if (Math.hypot(dLat, dLon) > this.city.radiusKm) {
      const home = ((Math.atan2(-dLon, -dLat) * 180) / Math.PI + 360) % 360;
      this.heading = this.city.gridAngle + Math.round((home - this.city.gridAngle) / 90) * 90;
    } else if (this.random() < 0.4) {
      this.heading += this.random() < 0.5 ? 90 : -90;
    }
    this.heading = (this.heading + 360) % 360;
  }
}
