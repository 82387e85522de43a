/**
 * Noise models of cheap terminals, applied to a clean day of reports (dayScript.ts) as a terminal
 * would send it: GPS jitter and multipath outliers, drift while parked, a missing or frozen
 * odometer, fuel sensor noise and slosh, level steps that overshoot at refuels and drains,
 * duplicated and reordered reports, a clock minutes off, speed spikes. Every model has its
 * parameters; one seed draws them all, so a noisy day is reproducible (docs/simulator-noise.md).
 */

import type { LocationInput } from '../telematics/jt808/codec';
import { rng } from './vehicle';

export interface NoiseModels {
  /** GPS jitter: a Gaussian error of this many metres (σ, per axis) on every fix. */
  jitterM?: number;
  /** Multipath: this share of fixes is off by minM..maxM metres in a random direction, for that one report. */
  multipath?: { rate: number; minM: number; maxM: number };
  /** Drift while parked (ACC off, speed 0): a random walk of stepM metres (σ) a report, held within maxM of where it parked. */
  parkedDrift?: { stepM: number; maxM: number };
  /** The odometer (0x01): absent from every report, or frozen at its reading from `fromShare` of the day's reports on. */
  odometer?: { kind: 'missing' } | { kind: 'frozen'; fromShare: number };
  /** The fuel level (0x02): sensor noise of sigmaL litres (σ) on every report, plus slosh of up to sloshL while moving. */
  fuel?: { sigmaL: number; sloshL: number };
  /** Level steps: the report where a refuel or drain shows first overshoots the step by overshootL. */
  fuelSteps?: { overshootL: number };
  /** This share of reports is sent twice. */
  duplicateRate?: number;
  /** This share of reports is sent up to maxShift places late. */
  reorder?: { rate: number; maxShift: number };
  /** The terminal's clock is this many minutes off (positive: ahead): every device time shifts. */
  clockMinutes?: number;
  /** This share of moving reports carries a speed spike of `kmh`. */
  speedSpikes?: { rate: number; kmh: number };
}

const M_PER_DEG_LAT = 111_320;

/** A standard normal draw (Box–Muller) from `random`. */
function gaussian(random: () => number): number {
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/** Moves a report `northM` / `eastM` metres, rounded as the codec carries it (1e-6°). */
function offset(r: LocationInput, northM: number, eastM: number): void {
  const lat = r.latitude;
  r.latitude = +(lat + northM / M_PER_DEG_LAT).toFixed(6);
  r.longitude = +(r.longitude + eastM / (M_PER_DEG_LAT * Math.cos((lat * Math.PI) / 180))).toFixed(6);
}

/** ACC is bit 0 of the status word. */
const accOn = (r: LocationInput) => (typeof r.status === 'number' ? (r.status & 1) !== 0 : r.status?.accOn === true);
const standing = (r: LocationInput) => !accOn(r) && (r.speed ?? 0) === 0;

/**
 * The reports as a noisy terminal sends them, in the order it sends them. `reports` (one day,
 * clean, in time order) is left as it is. Each model draws from its own stream of the seed, so
 * switching one model on or off leaves what the others draw unchanged.
 */
export function applyNoise(reports: readonly LocationInput[], models: NoiseModels, seed: number): LocationInput[] {
  const stream = (k: number) => rng(seed * 97 + k * 7_919 + 1);
  const out = reports.map((r) => ({ ...r, extras: r.extras ? { ...r.extras } : undefined }));
  const clean = reports.map((r) => (typeof r.extras?.fuelL === 'number' ? r.extras.fuelL : null));

  if (models.parkedDrift) {
    const random = stream(1);
    const { stepM, maxM } = models.parkedDrift;
    let north = 0;
    let east = 0;
    for (const r of out) {
      if (!standing(r)) {
        north = 0;
        east = 0;
        continue;
      }
      north += gaussian(random) * stepM;
      east += gaussian(random) * stepM;
      const d = Math.hypot(north, east);
      if (d > maxM) {
        north *= maxM / d;
        east *= maxM / d;
      }
      offset(r, north, east);
    }
  }
  if (models.jitterM) {
    const random = stream(2);
    for (const r of out) offset(r, gaussian(random) * models.jitterM, gaussian(random) * models.jitterM);
  }
  if (models.multipath) {
    const random = stream(3);
    const { rate, minM, maxM } = models.multipath;
    for (const r of out) {
      if (random() >= rate) continue;
      const m = minM + random() * (maxM - minM);
      const a = random() * 2 * Math.PI;
      offset(r, m * Math.cos(a), m * Math.sin(a));
    }
  }
  if (models.odometer) {
    const odo = models.odometer;
    const from = odo.kind === 'frozen' ? Math.floor(out.length * odo.fromShare) : 0;
    const frozenAt = out[from]?.extras?.mileageKm;
    for (const [i, r] of out.entries()) {
      if (!r.extras || i < from) continue;
      if (odo.kind === 'missing') delete r.extras.mileageKm;
      else r.extras.mileageKm = frozenAt;
    }
  }
  if (models.fuelSteps) {
    const { overshootL } = models.fuelSteps;
    for (let i = 1; i < out.length; i++) {
      const a = clean[i - 1];
      const b = clean[i];
      if (a === null || b === null || !standing(out[i]) || Math.abs(b - a) < 2) continue;
      // The first report of a step (the change takes two: dayScript.ts); the next reads true again.
      if (i >= 2 && clean[i - 2] !== null && Math.abs(a - clean[i - 2]!) >= 2) continue;
      out[i].extras!.fuelL = +(b + Math.sign(b - a) * overshootL).toFixed(1);
    }
  }
  if (models.fuel) {
    const random = stream(4);
    const { sigmaL, sloshL } = models.fuel;
    for (const r of out) {
      if (typeof r.extras?.fuelL !== 'number') continue;
      const slosh = (r.speed ?? 0) > 0 ? (random() * 2 - 1) * sloshL : 0;
      r.extras.fuelL = Math.max(0, +(r.extras.fuelL + gaussian(random) * sigmaL + slosh).toFixed(1));
    }
  }
  if (models.speedSpikes) {
    const random = stream(5);
    const { rate, kmh } = models.speedSpikes;
    for (const r of out) if ((r.speed ?? 0) > 0 && random() < rate) r.speed = kmh;
  }
  if (models.clockMinutes) for (const r of out) if (r.time !== null) r.time = new Date(r.time).getTime() + models.clockMinutes * 60_000;

  let sent = out;
  if (models.duplicateRate) {
    const random = stream(6);
    sent = sent.flatMap((r) => (random() < models.duplicateRate! ? [r, { ...r }] : [r]));
  }
  if (models.reorder) {
    const random = stream(7);
    const { rate, maxShift } = models.reorder;
    sent = [...sent];
    for (let i = sent.length - 1; i >= 0; i--) {
      if (random() >= rate) continue;
      const to = Math.min(sent.length - 1, i + 1 + Math.floor(random() * maxShift));
      const [r] = sent.splice(i, 1);
      sent.splice(to, 0, r);
    }
  }
  return sent;
}
