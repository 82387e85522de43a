/**
 * The accuracy suite's verdicts: a vehicle's derived trips, stops, fuel events and ledger days
 * read back and held against each labelled day's truth, then summed per noise profile with the
 * tolerances of the issue (docs/accuracy.md): trips and stops counted exactly, no trip while the
 * vehicle stood with the ACC off, distance within 1 % with an odometer and 2 % from GNSS alone,
 * refuels and drains found with precision and recall of at least 95 % and their volume within 5 %,
 * fuel used within 5 % a day.
 */

import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import type { LabelledDay } from './labelledDays';

export const TOLERANCE = {
  odometerDistance: 0.01,
  gnssDistance: 0.02,
  eventPrecision: 0.95,
  eventRecall: 0.95,
  eventVolume: 0.05,
  fuelUsed: 0.05,
  /** Below these a day's distance or fuel is held to an absolute bound instead (a rest day). */
  minKm: 1,
  minFuelL: 1,
} as const;

export interface DayVerdict {
  vehicle: number;
  day: string;
  profile: string;
  odometer: boolean;
  trips: { truth: number; derived: number };
  stops: { truth: number; derived: number };
  /** Derived trips that overlap no true trip (the vehicle stood with the ACC off). */
  falseTrips: number;
  distance: { truthKm: number; derivedKm: number; gnssKm: number; error: number };
  fuel: { truthL: number; derivedL: number; error: number };
  events: { truth: number; derived: number; matched: number; worstVolumeError: number };
}

const DAY_MS = 86_400_000;
const ms = (d: Date | string) => new Date(d).getTime();

/** How far one quantity is from its truth: relative, or absolute under `floor` (a rest day). */
const errorOf = (derived: number, truth: number, floor: number) =>
  truth >= floor ? Math.abs(derived - truth) / truth : Math.abs(derived - truth) > floor * 0.5 ? 1 : 0;

/** The verdicts of one vehicle's labelled days against what the product derived for it. */
export async function scoreVehicle(db: Kysely<DB>, vehicleId: number, days: readonly LabelledDay[]): Promise<DayVerdict[]> {
  const trips = await db.selectFrom('trip').select(['begin_time', 'end_time']).where('vehicle_id', '=', vehicleId).execute();
  const stops = await db.selectFrom('trip_stop').select(['begin_time', 'end_time']).where('vehicle_id', '=', vehicleId).execute();
  const events = await db.selectFrom('fuel_event').select(['kind', 'time', 'amount_l']).where('vehicle_id', '=', vehicleId).execute();
  const ledger = await db.selectFrom('ledger_day').selectAll().where('vehicle_id', '=', vehicleId).execute();
  return days.map((d) => {
    const clock = (d.profile.models.clockMinutes ?? 0) * 60_000;
    const lo = Date.parse(`${d.day}T00:00:00+08:00`);
    const hi = lo + DAY_MS;
    const row = ledger.find((l) => l.day === d.day);
    const tripsOfDay = trips.filter((t) => ms(t.begin_time) >= lo && ms(t.begin_time) < hi);
    const falseTrips = tripsOfDay.filter(
      (t) => !d.truth.trips.some((x) => ms(t.begin_time) < x.end + clock + 60_000 && ms(t.end_time) > x.begin + clock - 60_000),
    ).length;
    const stopsOfDay = stops.filter((s) => ms(s.begin_time) < hi && ms(s.end_time) > lo).length;
    const eventsOfDay = events.filter((e) => ms(e.time) >= lo && ms(e.time) < hi);
    let matched = 0;
    let worstVolumeError = 0;
    const taken = new Set<number>();
    for (const x of d.truth.fuelEvents) {
      const i = eventsOfDay.findIndex(
        (e, k) => !taken.has(k) && e.kind === x.kind && ms(e.time) >= x.begin + clock && ms(e.time) <= x.end + clock,
      );
      if (i < 0) continue;
      taken.add(i);
      matched++;
      worstVolumeError = Math.max(worstVolumeError, Math.abs(eventsOfDay[i].amount_l - x.amountL) / x.amountL);
    }
    const derivedKm = row?.mileage_km ?? 0;
    const derivedL = row?.fuel_l ?? 0;
    return {
      vehicle: d.vehicle,
      day: d.day,
      profile: d.profile.name,
      odometer: d.profile.odometer,
      trips: { truth: d.truth.trips.length, derived: row?.trip_count ?? 0 },
      stops: { truth: d.truth.stops, derived: stopsOfDay },
      falseTrips,
      distance: {
        truthKm: d.truth.distanceKm,
        derivedKm,
        gnssKm: row?.gnss_km ?? 0,
        error: errorOf(derivedKm, d.truth.distanceKm, TOLERANCE.minKm),
      },
      fuel: { truthL: d.truth.fuelUsedL, derivedL, error: errorOf(derivedL, d.truth.fuelUsedL, TOLERANCE.minFuelL) },
      events: { truth: d.truth.fuelEvents.length, derived: eventsOfDay.length, matched, worstVolumeError },
    };
  });
}

export interface ProfileSummary {
  profile: string;
  days: number;
  tripsExact: number;
  stopsExact: number;
  falseTrips: number;
  /** Median and worst relative distance error, and the tolerance that applies (the worst of the days'). */
  distanceMedian: number;
  distanceWorst: number;
  distanceTolerance: number;
  eventPrecision: number;
  eventRecall: number;
  eventVolumeWorst: number;
  fuelMedian: number;
  fuelWorst: number;
  /** Days that broke a per-day tolerance. */
  failedDays: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : 0;
};

export const distanceTolerance = (v: DayVerdict) => (v.odometer ? TOLERANCE.odometerDistance : TOLERANCE.gnssDistance);

/** The tolerances one day broke (none: an empty list). */
export function dayFailures(v: DayVerdict): string[] {
  const out: string[] = [];
  if (v.trips.derived !== v.trips.truth) out.push(`trips ${v.trips.derived}/${v.trips.truth}`);
  if (v.stops.derived !== v.stops.truth) out.push(`stops ${v.stops.derived}/${v.stops.truth}`);
  if (v.falseTrips) out.push(`${v.falseTrips} trip(s) while standing`);
  if (v.distance.error > distanceTolerance(v)) out.push(`distance ${v.distance.derivedKm.toFixed(2)}/${v.distance.truthKm.toFixed(2)} km`);
  if (v.fuel.error > TOLERANCE.fuelUsed) out.push(`fuel ${v.fuel.derivedL.toFixed(2)}/${v.fuel.truthL.toFixed(2)} L`);
  if (v.events.worstVolumeError > TOLERANCE.eventVolume) out.push(`event volume off by ${(v.events.worstVolumeError * 100).toFixed(1)} %`);
  return out;
}

function summary(profile: string, vs: readonly DayVerdict[]): ProfileSummary {
  const truthEvents = vs.reduce((s, v) => s + v.events.truth, 0);
  const derivedEvents = vs.reduce((s, v) => s + v.events.derived, 0);
  const matched = vs.reduce((s, v) => s + v.events.matched, 0);
  return {
    profile,
    days: vs.length,
    tripsExact: vs.filter((v) => v.trips.derived === v.trips.truth).length,
    stopsExact: vs.filter((v) => v.stops.derived === v.stops.truth).length,
    falseTrips: vs.reduce((s, v) => s + v.falseTrips, 0),
    distanceMedian: median(vs.map((v) => v.distance.error)),
    distanceWorst: Math.max(0, ...vs.map((v) => v.distance.error)),
    distanceTolerance: Math.min(...vs.map(distanceTolerance)),
    eventPrecision: derivedEvents ? matched / derivedEvents : 1,
    eventRecall: truthEvents ? matched / truthEvents : 1,
    eventVolumeWorst: Math.max(0, ...vs.map((v) => v.events.worstVolumeError)),
    fuelMedian: median(vs.map((v) => v.fuel.error)),
    fuelWorst: Math.max(0, ...vs.map((v) => v.fuel.error)),
    failedDays: vs.filter((v) => dayFailures(v).length > 0).length,
  };
}

/** One summary per profile in the order met, then one over all days. */
export function summarise(verdicts: readonly DayVerdict[]): ProfileSummary[] {
  const names = [...new Set(verdicts.map((v) => v.profile))];
  return [
    ...names.map((n) =>
      summary(
        n,
        verdicts.filter((v) => v.profile === n),
      ),
    ),
    summary('all', verdicts),
  ];
}

/** Whether a summary meets the tolerances that are over many days (event precision and recall). */
export const eventsWithinTolerance = (s: ProfileSummary) =>
  s.eventPrecision >= TOLERANCE.eventPrecision && s.eventRecall >= TOLERANCE.eventRecall;

const pct = (x: number) => `${(x * 100).toFixed(2)} %`;

/** The summaries as the Markdown table docs/accuracy.md shows. */
export function resultsTable(summaries: readonly ProfileSummary[]): string {
  const lines = [
    '| profile | days | trips exact | stops exact | trips while standing | distance error median / worst (tolerance) | events precision / recall | event volume worst | fuel used error median / worst | days failed |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const s of summaries)
    lines.push(
      `| ${s.profile} | ${s.days} | ${s.tripsExact}/${s.days} | ${s.stopsExact}/${s.days} | ${s.falseTrips} | ${pct(s.distanceMedian)} / ${pct(s.distanceWorst)} (${pct(s.distanceTolerance)}) | ${pct(s.eventPrecision)} / ${pct(s.eventRecall)} | ${pct(s.eventVolumeWorst)} | ${pct(s.fuelMedian)} / ${pct(s.fuelWorst)} | ${s.failedDays} |`,
    );
  return lines.join('\n');
}
