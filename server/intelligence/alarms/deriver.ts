/**
 * The alarm deriver: plugs into the derivation pipeline (server/intelligence/deriver.ts). For one
 * vehicle's window it runs every detector over the ordered reports and replaces the alarms that
 * begin in the window, so alarms depend only on what is stored, never on arrival order, and a
 * rebuild changes nothing. Windows are widened so that no alarm, and no condition a policy's
 * duration needs, is cut at an edge.
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import type { DeriveObdRecord, DerivePosition, Deriver, TimeRange } from '../deriver';
import { loadObdRecordsMany, loadPositionsMany, rangesTable } from '../windowLoad';
import { AI_DEFAULTS, repeatArrival, repeatParams, skewing, skewRule, type RouteTask } from './detectors/aiRules';
import { routeTasksMany } from './routeTasks';
import { activeSafetyIntervals } from './detectors/activeSafety';
import { alarmWordIntervals } from './detectors/alarmWord';
import { fenceIntervals } from './detectors/fences';
import { drainAlarm } from './detectors/fuelDrain';
import { HOUR, MINUTE } from './detectors/motionRules';
import { faultIntervals, obdAlarmIntervals } from './detectors/obd';
import { dtcReports, expertLookup } from './dtcReports';
import { overSpeedRule, policyIntervals, RULE_DEFAULTS } from './detectors/policyRules';
import { mergeIntervals, worse } from './merge';
import { orgPathsOf, type PolicySet } from './policies';
import { alarmWindowBounds, trailPrefixes } from './ignitionReach';
import { closeClockAlarms, replaceAlarmsMany, type AlarmReplacement, type RaisedAlarm } from './store';
import { CLOCK_SOURCE, hasSource, type AlarmInterval, type AlarmType } from './types';
import { lookupsOf, type DeriveLookups } from '../settingsCache';
import { clockStopsKept } from './stopClock';
import { newlyDecided } from './newlyDecided';
import { newestOf } from '../heldWindows';
import { carriedAlarms, carriedBits, runKey, RUN_TYPES, type CarriedAlarm } from './carry';

/**
 * Context every window gets beyond the longest policy duration: enough for transitions (ACC,
 * bits) to see the report before. Kept short because every deriver's window widens to it.
 */
const MARGIN_MS = MINUTE;

/** How far back (and, for a late upload, forward) a window must reach for these policies. */
export function lookbackMs(policies: PolicySet): number {
  let longest = 0;
  for (const p of policies.values()) longest = Math.max(longest, (p.durationMinutes ?? 0) * MINUTE);
  // OverSpeed's seconds add to its minutes.
  const overSpeed = policies.get('OverSpeed');
  if (overSpeed) longest = Math.max(longest, overSpeedRule(overSpeed).minMs);
  if (policies.has('Idle') && !policies.get('Idle')!.durationMinutes) longest = Math.max(longest, RULE_DEFAULTS.idleMinutes * MINUTE);
  if (policies.has('StopLongTime') && !policies.get('StopLongTime')!.durationMinutes)
    longest = Math.max(longest, RULE_DEFAULTS.stopMinutes * MINUTE);
  if (policies.has('Skewing') && !policies.get('Skewing')!.durationMinutes) longest = Math.max(longest, AI_DEFAULTS.skewMinutes * MINUTE);
  const fatigue = policies.get('Fatigue');
  if (fatigue)
    longest = Math.max(
      longest,
      (fatigue.params.hours ?? RULE_DEFAULTS.fatigueHours) * HOUR +
        (fatigue.params.restMinutes ?? RULE_DEFAULTS.fatigueRestMinutes) * MINUTE,
    );
  // The visits its window holds, as the rule itself reads it (`durationMinutes` may be the window).
  const repeat = policies.get('RepeatArrival');
  if (repeat) longest = Math.max(longest, repeatParams(repeat).windowMs);
  return longest + MARGIN_MS;
}

export { fencesFor } from './fenceRules';

/**
 * Per range, in the order given, the suspected drains the trip deriver found (rebuilt just before,
 * in the same transaction), by when each first read as one: one statement for all the ranges.
 */
async function fuelDrainsMany(db: Kysely<DB>, ranges: ReadonlyArray<TimeRange & { vehicleId: number }>): Promise<AlarmInterval[][]> {
  const out: AlarmInterval[][] = ranges.map(() => []);
  if (!ranges.length) return out;
  const r = await sql<{
    ord: number;
    ms: number;
    seen: number | null;
    amount_l: number;
    latitude: number;
    longitude: number;
    before: number;
    after: number;
  }>`
    SELECT w.ord, (extract(epoch FROM f.time) * 1000)::float8 AS ms, (extract(epoch FROM f.detected_at) * 1000)::float8 AS seen, f.amount_l, f.latitude, f.longitude,
      f.level_before_l AS before, f.level_after_l AS after
    FROM ${rangesTable(ranges)}
    JOIN fuel_event f ON f.vehicle_id = w.vehicle_id AND f.kind = 'drain' AND coalesce(f.detected_at, f.time) >= w.lo AND coalesce(f.detected_at, f.time) < w.hi
    ORDER BY w.ord, f.time`.execute(db);
  for (const x of r.rows)
    out[Number(x.ord) - 1].push(
      drainAlarm({
        time: Math.round(Number(x.ms)),
        detectedAt: x.seen === null ? null : Math.round(Number(x.seen)),
        amountL: x.amount_l,
        levelBeforeL: x.before,
        levelAfterL: x.after,
        latitude: x.latitude,
        longitude: x.longitude,
      }),
    );
  return out;
}

/** What the detectors read of a vehicle: every stored position and OBD record of the range, and what was read for it beside them. */
export interface AlarmRead {
  positions: readonly DerivePosition[];
  obdRecords: readonly DeriveObdRecord[];
  range: TimeRange;
  /** Under a Skewing policy: the vehicle's tasks with a route over the range (routeTasks.ts). */
  tasks: readonly RouteTask[];
  /** Under a FuelDrain policy: the drains' alarms of the range (fuelDrainsMany). */
  drains: readonly AlarmInterval[];
  /** Alarms open at the range's start that its rules go on from (carry.ts), and the report just before the range. */
  carried?: readonly CarriedAlarm[];
  before?: DerivePosition | null;
  /** Under a Trail policy: the reports its rule reads before the range (ignitionReach.ts trailPrefixes). */
  trail?: readonly DerivePosition[];
}

/** The runs whose value is the worst over all their reports (merge.ts `worse`): OverSpeed's peak, Low's lowest, Trail's and Skewing's farthest. */
const RUN_EXTREMES: ReadonlySet<AlarmType> = new Set<AlarmType>(['OverSpeed', 'Low', 'Trail', 'Skewing']);

/** Whether two alarms are of one key (vehicle aside): type, subject and begin. */
const sameKey = (a: AlarmInterval, b: AlarmInterval) => a.type === b.type && a.subject === b.subject && a.begin === b.begin;

/** A carried run (carry.ts): the alarm as stored, and the reports its rule reads before the range. */
interface CarriedRun {
  alarm: AlarmInterval;
  /** Its first report and the one just before the range. */
  prefix: DerivePosition[];
}

/** The carried runs, by key (carry.ts runKey): each rule goes on from the run of its own key and source. */
function carriedRuns(read: AlarmRead): Map<string, CarriedRun> {
  const runs = new Map<string, CarriedRun>();
  const start = read.positions[0]?.time ?? Infinity;
  const before = read.before;
  for (const { interval, first } of read.carried ?? []) {
    // Fatigue's first report is its drive's, not a condition run's (policyPrefixes).
    if (!first || !(first.time < start) || !RUN_TYPES.has(interval.type)) continue;
    runs.set(runKey(interval.type, interval.subject), {
      alarm: interval,
      prefix: before && before.time > first.time && before.time < start ? [first, before] : [first],
    });
  }
  return runs;
}

/** A policy's run goes on from a carried alarm it raised; StopLongTime's from the clock's stop too, the same standing run (stopClock.ts). */
const POLICY_RUN_SOURCES = ['policy', CLOCK_SOURCE];

/**
 * Per type, the reports its policy rule reads before the range: for a carried run of its own its
 * first report and the one just before the range; for FireOn the report just before the range; for
 * a carried Fatigue the drive's first report, its last moving one and the one after (carry.ts); for
 * Trail its anchor and tow (read.trail).
 */
function policyPrefixes(read: AlarmRead, runs: ReadonlyMap<string, CarriedRun>): Map<AlarmType, DerivePosition[]> {
  const prefixes = new Map<AlarmType, DerivePosition[]>();
  const start = read.positions[0]?.time ?? Infinity;
  // An ignition at the window's first report is one when the report before it had the ACC off.
  if (read.before && read.before.time < start) prefixes.set('FireOn', [read.before]);
  if (read.trail?.length) prefixes.set('Trail', [...read.trail]);
  for (const { alarm, prefix } of runs.values())
    if (alarm.subject === '' && POLICY_RUN_SOURCES.some((s) => hasSource(alarm, s))) prefixes.set(alarm.type, prefix);
  for (const { interval, first, walk } of read.carried ?? [])
    if (interval.type === 'Fatigue' && first && first.time < start && hasSource(interval, 'policy'))
      prefixes.set('Fatigue', [first, ...walk.filter((p) => p.time > first.time && p.time < start)]);
  return prefixes;
}

/** Per task, the reports its Skewing reads before the range (a carried run off its route). */
function skewPrefixes(runs: ReadonlyMap<string, CarriedRun>): Map<number, DerivePosition[]> {
  const prefixes = new Map<number, DerivePosition[]>();
  for (const { alarm, prefix } of runs.values())
    if (alarm.type === 'Skewing' && typeof alarm.detail?.taskId === 'number') prefixes.set(alarm.detail.taskId, prefix);
  return prefixes;
}

/** The reports before the range of the stop a carried StopLongTime runs in (its policy's, or the clock's). */
const stopPrefix = (read: AlarmRead) => carriedRuns(read).get(runKey('StopLongTime', ''))?.prefix ?? [];

/** Everything the detectors find in these reports (merged, not yet cut to a window). */
export async function detectAlarms(
  vehicleId: number,
  orgPath: string,
  read: AlarmRead,
  lookups: DeriveLookups,
  obdAlarmTypes?: ReadonlyMap<number, AlarmType>,
): Promise<AlarmInterval[]> {
  const { positions } = read;
  const carried = read.carried ?? [];
  const policies = await lookups.policies(orgPath);
  const bits = carried.flatMap(({ interval }) => {
    const from = carriedBits(interval);
    return from.length ? [{ alarm: interval, bits: from }] : [];
  });
  const runs = carriedRuns(read);
  const found: AlarmInterval[] = [
    ...alarmWordIntervals(positions, bits),
    ...activeSafetyIntervals(positions),
    ...policyIntervals(positions, policies, policyPrefixes(read, runs)),
  ];
  // A carried OverSpeed goes on in the walk of the fence whose speed limit it came from (fences.ts).
  const speeding = runs.get(runKey('OverSpeed', ''));
  const fenceCarry = speeding ? { alarm: speeding.alarm, before: speeding.prefix[speeding.prefix.length - 1] } : undefined;
  for (const fence of await lookups.fences(vehicleId, orgPath)) found.push(...fenceIntervals(positions, fence, fenceCarry));
  if (policies.has('Fault')) {
    const reports = dtcReports(positions, read.obdRecords);
    found.push(
      ...faultIntervals(
        reports,
        await expertLookup(lookups, reports),
        carried.map((c) => c.interval),
      ),
    );
  }
  found.push(...obdAlarmIntervals(read.obdRecords, obdAlarmTypes));
  const repeat = policies.get('RepeatArrival');
  if (repeat) found.push(...repeatArrival(positions, repeatParams(repeat)));
  const skew = policies.get('Skewing');
  if (skew) found.push(...skewing(positions, read.tasks, skewRule(skew), skewPrefixes(runs)));
  if (policies.has('FuelDrain')) found.push(...read.drains);
  const merged = mergeIntervals(found);
  // A carried run's extreme over the reports before the range counts too (the range reads only its
  // first): OverSpeed's peak speed, Low's lowest reading.
  for (const m of merged) {
    if (!RUN_EXTREMES.has(m.type)) continue;
    const c = carried.find(({ interval }) => sameKey(interval, m));
    if (c) m.value = worse(m.type, m.value, c.interval.value);
  }
  return merged;
}

/**
 * The tasks of the carried Skewing alarms that the windows' own read missed (a task that ended
 * while its vehicle's reports ended off the route, before the window): read too, in one statement
 * for the pass and only when one is missing, so the run goes on as a read back to its begin would.
 */
async function addCarriedTasks(
  trx: Kysely<DB>,
  tasks: Map<number, RouteTask[]>,
  skewed: ReadonlyArray<TimeRange & { i: number; vehicleId: number }>,
  carriedOf: readonly CarriedAlarm[][],
): Promise<void> {
  const missing = skewed.flatMap((x) => {
    const have = new Set((tasks.get(x.i) ?? []).map((t) => t.id));
    const begins = carriedOf[x.i].flatMap(({ interval: a }) =>
      a.type === 'Skewing' && typeof a.detail?.taskId === 'number' && !have.has(a.detail.taskId) ? [a.begin] : [],
    );
    return begins.length ? [{ ...x, from: Math.min(...begins) }] : [];
  });
  if (!missing.length) return;
  const more = await routeTasksMany(trx, missing);
  missing.forEach((x, k) => {
    const have = new Set((tasks.get(x.i) ?? []).map((t) => t.id));
    tasks.set(
      x.i,
      [...(tasks.get(x.i) ?? []), ...more[k].filter((t) => !have.has(t.id))].sort((a, b) => a.id - b.id),
    );
  });
}

/**
 * A carried alarm its rule does not find again was stored before reports that now lie between it
 * and the window (stored, their marks not yet taken): going on from the stored alarm would lose
 * it, or move its row onto a later alarm of its type. Rare; for that window the detectors read
 * back to the earliest carried alarm's begin and carry nothing, as before carrying, and the
 * replacement still starts at the window (what begins before it is only read).
 */
async function detectReadingBack(
  trx: Kysely<DB>,
  vehicleId: number,
  read: AlarmRead,
  detect: (read: AlarmRead) => Promise<AlarmInterval[]>,
): Promise<AlarmInterval[]> {
  const from = Math.min(...(read.carried ?? []).map((c) => c.interval.begin));
  const earlier = [{ vehicleId, from, to: read.range.from }];
  const [[positions], [obdRecords], [trail]] = await Promise.all([
    loadPositionsMany(trx, earlier),
    loadObdRecordsMany(trx, earlier),
    read.trail ? trailPrefixes(trx, earlier) : [undefined],
  ]);
  return detect({
    ...read,
    positions: [...positions, ...read.positions],
    obdRecords: [...obdRecords, ...read.obdRecords],
    range: { from, to: read.range.to },
    carried: [],
    before: null,
    trail,
  });
}

/** Per range (in order), the time of the vehicle's first report at or after its end; -Infinity when none or unbounded. */
async function firstReportsFrom(trx: Kysely<DB>, ranges: ReadonlyArray<TimeRange & { vehicleId: number }>): Promise<number[]> {
  const out = ranges.map(() => -Infinity);
  if (!ranges.some((r) => Number.isFinite(r.to))) return out;
  // Forwards along the (vehicle, time) index: one step each (nothing lies at or after +infinity).
  const r = await sql<{ ord: number; ms: number }>`
    SELECT w.ord, (extract(epoch FROM p.t) * 1000)::float8 AS ms FROM ${rangesTable(ranges)}
    JOIN LATERAL (SELECT device_time AS t FROM position WHERE vehicle_id = w.vehicle_id AND device_time >= w.hi ORDER BY device_time LIMIT 1) p ON true`.execute(
    trx,
  );
  for (const row of r.rows) out[Number(row.ord) - 1] = Math.round(Number(row.ms));
  return out;
}

export interface AlarmDeriverOptions {
  /** Told about each alarm a rebuild created, after the rebuild (notifications). */
  onRaised?: (alarms: RaisedAlarm[]) => void;
  /** OBD alarm item ids the operator maps to alarm types (OBD_ALARM_TYPES). */
  obdAlarmTypes?: ReadonlyMap<number, AlarmType>;
}

export function alarmDeriver(opts: AlarmDeriverOptions = {}): Deriver {
  const deriver: Deriver = {
    name: 'alarms',
    async extend(trx, vehicleId, range, pass) {
      return (await deriver.extendMany!(trx, [{ vehicleId, ...range }], pass))[0];
    },
    /**
     * Back by the longest policy's reach and out to whole alarms: one statement for all the ranges
     * (two outside a pass); with a Trail policy, back to a towing under way that is not carried (ignitionReach.ts).
     */
    async extendMany(trx, ranges, pass) {
      const lookups = lookupsOf(trx, pass);
      const known = pass?.vehicles;
      const paths = known
        ? null
        : await orgPathsOf(
            trx,
            ranges.map((r) => r.vehicleId),
          );
      const lookback: number[] = [];
      const anchored: boolean[] = [];
      for (const r of ranges) {
        const path = known ? known.get(r.vehicleId)?.orgPath : paths!.get(r.vehicleId);
        const policies = path ? await lookups.policies(path) : null;
        lookback.push(policies ? lookbackMs(policies) : MARGIN_MS);
        anchored.push(policies?.has('Trail') === true);
      }
      const next = await firstReportsFrom(trx, ranges);
      return alarmWindowBounds(
        trx,
        ranges.map((r, i) => ({
          vehicleId: r.vehicleId,
          from: r.from - lookback[i],
          // On to the first report after the range too, however far: its rules read the report
          // before it (an ignition is one after a report with the ignition off), which the range may
          // have just put there.
          to: Number.isFinite(r.to) ? Math.max(r.to + lookback[i], next[i] + 1) : Infinity,
        })),
        anchored,
      );
    },
    async rebuild(trx, window, pass) {
      await deriver.rebuildMany!(trx, [window], pass);
    },
    async rebuildMany(trx, windows, pass) {
      const lookups = lookupsOf(trx, pass);
      const replacements: AlarmReplacement[] = [];
      const policiesOf = await Promise.all(windows.map((w) => lookups.policies(w.vehicle.orgPath)));
      // A window that stops short of the newest report (a late or blind-area upload) reads on a
      // little, so a condition that holds at its edge gets its true end: the positions and OBD
      // records of every such window's tail in two statements for the pass, not two per window.
      const tailed = windows.flatMap((w, i) =>
        Number.isFinite(w.to) ? [{ i, vehicleId: w.vehicle.vehicleId, from: w.to, to: w.to + lookbackMs(policiesOf[i]) }] : [],
      );
      const [tailPositions, tailObd] = tailed.length
        ? await Promise.all([loadPositionsMany(trx, tailed), loadObdRecordsMany(trx, tailed)])
        : [[], []];
      const tails = new Map(tailed.map((t, k) => [t.i, { positions: tailPositions[k], obdRecords: tailObd[k] }]));
      const reads = windows.map((window, i) => {
        const tail = tails.get(i);
        const positions = tail?.positions.length ? [...window.positions, ...tail.positions] : window.positions;
        const range = { from: window.from, to: tail?.positions.length ? tail.positions[tail.positions.length - 1].time + 1 : window.to };
        // Every OBD record of the range: the window's, and the tail's up to its last position.
        const obdRecords = tail ? [...window.obdRecords, ...tail.obdRecords.filter((o) => o.time < range.to)] : window.obdRecords;
        return { vehicleId: window.vehicle.vehicleId, positions, obdRecords, range };
      });
      // The route tasks and drains of the windows under such a policy: one statement each for the pass.
      const under = (type: AlarmType) =>
        reads.flatMap((r, i) => (policiesOf[i].has(type) ? [{ i, vehicleId: r.vehicleId, ...r.range }] : []));
      const skewed = under('Skewing');
      const drained = under('FuelDrain');
      const towed = windows.flatMap((w, i) => (policiesOf[i].has('Trail') ? [{ i, vehicleId: w.vehicle.vehicleId, from: w.from }] : []));
      const [tasksOf, drainsOf, carriedOf, trailsOf] = await Promise.all([
        routeTasksMany(trx, skewed),
        fuelDrainsMany(trx, drained),
        carriedAlarms(
          trx,
          windows.map((w) => ({ vehicleId: w.vehicle.vehicleId, from: w.from })),
        ),
        trailPrefixes(trx, towed),
      ]);
      const trails = new Map(towed.map((x, k) => [x.i, trailsOf[k]]));
      const tasks = new Map(skewed.map((x, k) => [x.i, tasksOf[k]]));
      await addCarriedTasks(trx, tasks, skewed, carriedOf);
      const drains = new Map(drained.map((x, k) => [x.i, drainsOf[k]]));
      for (const [i, window] of windows.entries()) {
        const { vehicleId, orgPath } = window.vehicle;
        const { positions, obdRecords, range } = reads[i];
        const read: AlarmRead = {
          positions,
          obdRecords,
          range,
          tasks: tasks.get(i) ?? [],
          drains: drains.get(i) ?? [],
          carried: carriedOf[i],
          before: window.before,
          trail: trails.get(i),
        };
        const detect = async (r: AlarmRead) => {
          const all = await detectAlarms(vehicleId, orgPath, r, lookups, opts.obdAlarmTypes);
          // The clock's stops the reports still end in, read with the stop's carried run (stopClock.ts).
          if (policiesOf[i].has('StopLongTime'))
            all.push(...(await clockStopsKept(trx, vehicleId, [...stopPrefix(r), ...r.positions], all)));
          return all;
        };
        let found = await detect(read);
        if (carriedOf[i].some((c) => !found.some((f) => sameKey(f, c.interval))))
          found = await detectReadingBack(trx, vehicleId, read, detect);
        // Up to the newest report read: what begins after it is the next pass's to find.
        const readTo = newestOf({ positions, obdRecords }) + 1;
        replacements.push({
          vehicleId,
          from: window.from,
          found,
          to: Math.min(window.to, readTo),
          carried: carriedOf[i].map((c) => ({ id: c.id, ...c.interval })),
        });
      }
      // Each vehicle's alarms are its own: all the windows' replaced in one delete and one insert.
      // Only clock-driven alarms are closed alongside, which the replacing never touches: once for the batch.
      const raised = await replaceAlarmsMany(trx, replacements, [closeClockAlarms(windows.map((w) => w.vehicle.vehicleId))]);
      const onRaised = opts.onRaised;
      // Nobody to tell (a rebuild without announcements): nothing to decide, no statement for it.
      if (!onRaised) return;
      const announced = await newlyDecided(
        trx,
        windows.map((w, i) => ({
          vehicleId: w.vehicle.vehicleId,
          stored: raised[i],
          found: replacements[i].found,
          read: { ...reads[i], before: w.before },
          dirty: w.dirty,
        })),
        pass?.alarmSettings,
      );
      const created = windows.flatMap((w, i) => announced[i].map((a) => ({ ...a, orgPath: w.vehicle.orgPath })));
      // Announced once committed, so whoever hears of an alarm can read it (outside a pipeline
      // pass, a direct rebuild in tests, at once).
      if (created.length) (pass ? pass.afterCommit : (f: () => void) => f())(() => onRaised(created));
    },
  };
  return deriver;
}
