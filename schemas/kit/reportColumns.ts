/**
 * Columns of the report tables that also export as xlsx (statistics/health, statistics/safety,
 * statistics/fuel, statistics/cost, statistics/driver, maintenance/status, team/breakRules,
 * team/orderSchedule): one list for the console's table and the server's file, so
 * the file holds exactly what the page shows. Labels are message keys.
 */

import type { CostRow } from './costs';

export type CellValue = string | number | null | readonly string[];

export interface ReportColumn<R> {
  key: string;
  labelKey: string;
  /** How the cell reads: a number with `digits` decimals, text, codes translated under `enumPrefix`, or the local time of an instant. */
  kind: 'number' | 'text' | 'enum' | 'time';
  digits?: number;
  /** `enum` cells: the message key prefix of each code (`<prefix>.<code>`); lists are joined. */
  enumPrefix?: string;
  value: (row: R) => CellValue;
}

const hours = (s: number) => Math.round((s / 3600) * 100) / 100;
const minutes = (s: number) => Math.round((s / 60) * 10) / 10;
const num = <R>(key: keyof R & string, labelKey: string, digits = 0): ReportColumn<R> => ({
  key,
  labelKey,
  kind: 'number',
  digits,
  value: (r) => r[key] as number | null,
});
const text = <R>(key: keyof R & string, labelKey: string): ReportColumn<R> => ({
  key,
  labelKey,
  kind: 'text',
  value: (r) => (r[key] as string | null) ?? null,
});

/** Event counts and times of driving behaviour, as the safety ranking and the violations carry them. */
export interface BehaviourCounts {
  harshAcceleration: number;
  harshBraking: number;
  sharpTurn: number;
  fatigue: number;
  speedingS: number;
}

const behaviourColumns = <R extends BehaviourCounts>(): Array<ReportColumn<R>> => [
  num<R>('harshAcceleration', 'behaviour.fields.harshAcceleration'),
  num<R>('harshBraking', 'behaviour.fields.harshBraking'),
  num<R>('sharpTurn', 'behaviour.fields.sharpTurn'),
  num<R>('fatigue', 'behaviour.fields.fatigue'),
  { key: 'speedingMin', labelKey: 'reports.columns.speedingMin', kind: 'number', digits: 1, value: (r) => minutes(r.speedingS) },
];

export interface SafetyRankRow extends BehaviourCounts {
  rank: number | null;
  vehicleId: number;
  licence: string;
  score: number | null;
  distanceKm: number;
  drivingS: number;
  nightS: number;
}

export const SAFETY_RANK_COLUMNS: ReadonlyArray<ReportColumn<SafetyRankRow>> = [
  num<SafetyRankRow>('rank', 'reports.columns.rank'),
  text<SafetyRankRow>('licence', 'reports.ledger.licence'),
  num<SafetyRankRow>('score', 'reports.columns.score', 1),
  num<SafetyRankRow>('distanceKm', 'reports.ledger.mileageKm', 1),
  { key: 'drivingH', labelKey: 'reports.ledger.drivingH', kind: 'number', digits: 2, value: (r) => hours(r.drivingS) },
  ...behaviourColumns<SafetyRankRow>(),
  { key: 'nightH', labelKey: 'reports.columns.nightH', kind: 'number', digits: 2, value: (r) => hours(r.nightS) },
];

/** One driver's figures over a range (statistics/driver): a driver, a card no driver holds, or the unassigned rest. */
export interface DriverStatsRow extends BehaviourCounts {
  kind: 'driver' | 'unknownCard' | 'unassigned';
  driverId: number | null;
  driverName: string | null;
  cardNo: string | null;
  mileageKm: number;
  drivingS: number;
  idleS: number;
  tripCount: number;
  fuelL: number;
  maxSpeed: number;
  score: number | null;
  alarmCount: number;
  nightS: number;
}

export const DRIVER_STATS_COLUMNS: ReadonlyArray<ReportColumn<DriverStatsRow>> = [
  { key: 'kind', labelKey: 'driverStats.columns.kind', kind: 'enum', enumPrefix: 'driverStats.kinds', value: (r) => r.kind },
  text<DriverStatsRow>('driverName', 'reports.columns.driver'),
  text<DriverStatsRow>('cardNo', 'driverStats.columns.cardNo'),
  num<DriverStatsRow>('mileageKm', 'reports.ledger.mileageKm', 1),
  { key: 'drivingH', labelKey: 'reports.ledger.drivingH', kind: 'number', digits: 2, value: (r) => hours(r.drivingS) },
  num<DriverStatsRow>('tripCount', 'reports.ledger.tripCount'),
  num<DriverStatsRow>('score', 'reports.columns.score', 1),
  num<DriverStatsRow>('alarmCount', 'reports.columns.alarmCount'),
  ...behaviourColumns<DriverStatsRow>(),
];

/** One driver's share of the ledger on one local day (statistics/driver, by day). */
export interface DriverDayRow extends Pick<
  DriverStatsRow,
  'kind' | 'driverId' | 'driverName' | 'cardNo' | 'mileageKm' | 'drivingS' | 'tripCount'
> {
  date: string;
}

export const DRIVER_DAY_COLUMNS: ReadonlyArray<ReportColumn<DriverDayRow>> = [
  text<DriverDayRow>('date', 'reports.ledger.date'),
  { key: 'kind', labelKey: 'driverStats.columns.kind', kind: 'enum', enumPrefix: 'driverStats.kinds', value: (r) => r.kind },
  text<DriverDayRow>('driverName', 'reports.columns.driver'),
  text<DriverDayRow>('cardNo', 'driverStats.columns.cardNo'),
  num<DriverDayRow>('mileageKm', 'reports.ledger.mileageKm', 1),
  { key: 'drivingH', labelKey: 'reports.ledger.drivingH', kind: 'number', digits: 2, value: (r) => hours(r.drivingS) },
  num<DriverDayRow>('tripCount', 'reports.ledger.tripCount'),
];

export interface HealthVehicleRow {
  vehicleId: number;
  licence: string;
  date: string;
  index: number;
  band: 'healthy' | 'attention' | 'fault';
  faults: Array<{ code: string; level: string; name: string | null; resolvent: string | null; cause: string | null }>;
  minBatteryV: number | null;
  maxCoolantC: number | null;
  alarmCount: number;
}

export const HEALTH_VEHICLE_COLUMNS: ReadonlyArray<ReportColumn<HealthVehicleRow>> = [
  text<HealthVehicleRow>('licence', 'reports.ledger.licence'),
  { key: 'band', labelKey: 'reports.columns.band', kind: 'enum', enumPrefix: 'reports.bands', value: (r) => r.band },
  num<HealthVehicleRow>('index', 'reports.columns.healthIndex'),
  text<HealthVehicleRow>('date', 'reports.columns.asOf'),
  {
    key: 'faults',
    labelKey: 'reports.columns.faults',
    kind: 'text',
    value: (r) => r.faults.map((f) => (f.name ? `${f.code} ${f.name}` : f.code)),
  },
  { key: 'causes', labelKey: 'reports.columns.cause', kind: 'text', value: (r) => r.faults.flatMap((f) => (f.cause ? [f.cause] : [])) },
  {
    key: 'remedies',
    labelKey: 'reports.columns.remedy',
    kind: 'text',
    value: (r) => r.faults.flatMap((f) => (f.resolvent ? [f.resolvent] : [])),
  },
  num<HealthVehicleRow>('minBatteryV', 'reports.columns.minBatteryV', 1),
  num<HealthVehicleRow>('maxCoolantC', 'reports.columns.maxCoolantC', 0),
  num<HealthVehicleRow>('alarmCount', 'reports.columns.alarmCount'),
];

/** Litres (or money) per 100 km; null when the vehicle has not driven. */
export const per100Km = (amount: number, km: number): number | null => (km > 0 ? Math.round((amount / km) * 10000) / 100 : null);

/** One vehicle's ledger summed over a range (statistics/fuel, fuel by vehicle). */
export interface FuelVehicleRow {
  vehicleId: number;
  licence: string;
  mileageKm: number;
  fuelL: number;
  refuelL: number;
  drainL: number;
}

export const FUEL_VEHICLE_COLUMNS: ReadonlyArray<ReportColumn<FuelVehicleRow>> = [
  text<FuelVehicleRow>('licence', 'reports.ledger.licence'),
  num<FuelVehicleRow>('mileageKm', 'reports.ledger.mileageKm', 1),
  num<FuelVehicleRow>('fuelL', 'reports.ledger.fuelL', 2),
  { key: 'per100', labelKey: 'console.statistics.fuel.per100', kind: 'number', digits: 2, value: (r) => per100Km(r.fuelL, r.mileageKm) },
  num<FuelVehicleRow>('refuelL', 'reports.ledger.refuelL', 2),
  num<FuelVehicleRow>('drainL', 'reports.ledger.drainL', 2),
];

/** One vehicle's costs over a range (statistics/cost, by vehicle): a cost summary's row. */
export type CostVehicleRow = CostRow;

export const COST_VEHICLE_COLUMNS: ReadonlyArray<ReportColumn<CostVehicleRow>> = [
  text<CostVehicleRow>('label', 'reports.ledger.licence'),
  num<CostVehicleRow>('fuel', 'console.statistics.cost.fuel', 2),
  num<CostVehicleRow>('maintenance', 'console.statistics.cost.maintenance', 2),
  num<CostVehicleRow>('other', 'console.statistics.cost.other', 2),
  num<CostVehicleRow>('total', 'console.statistics.cost.total', 2),
  num<CostVehicleRow>('mileageKm', 'console.statistics.cost.mileageKm', 1),
  num<CostVehicleRow>('perKm', 'console.statistics.cost.perKm', 3),
  num<CostVehicleRow>('perDay', 'console.statistics.cost.perDay', 2),
];

/** A maintenance schedule × vehicle with its usage since the last service and its state (the maintenance page). */
export interface MaintenanceUsageRow {
  licence: string;
  scheduleName: string;
  state: 'overdue' | 'due' | 'ok';
  baseDay: string;
  dueDay: string | null;
  usedKm: number | null;
  intervalKm: number | null;
  remainingKm: number | null;
  usedHours: number | null;
  intervalHours: number | null;
  remainingHours: number | null;
  usedDays: number;
  intervalDays: number | null;
  remainingDays: number | null;
}

/** "used / interval" of one trigger, as the page shows it; blank when the schedule does not count it. */
const usedOf = (
  key: string,
  labelKey: string,
  pair: (r: MaintenanceUsageRow) => [number | null, number | null],
): ReportColumn<MaintenanceUsageRow> => ({
  key,
  labelKey,
  kind: 'text',
  value: (r) => {
    const [used, interval] = pair(r);
    return interval === null ? null : `${used ?? ''} / ${interval}`;
  },
});

export const MAINTENANCE_COLUMNS: ReadonlyArray<ReportColumn<MaintenanceUsageRow>> = [
  text<MaintenanceUsageRow>('licence', 'console.maintenance.licence'),
  text<MaintenanceUsageRow>('scheduleName', 'console.maintenance.schedule'),
  { key: 'state', labelKey: 'console.maintenance.state', kind: 'enum', enumPrefix: 'console.maintenance.states', value: (r) => r.state },
  text<MaintenanceUsageRow>('baseDay', 'console.maintenance.baseDay'),
  usedOf('km', 'console.maintenance.usedKm', (r) => [r.usedKm, r.intervalKm]),
  num<MaintenanceUsageRow>('remainingKm', 'console.maintenance.remainingKm', 1),
  usedOf('hours', 'console.maintenance.usedHours', (r) => [r.usedHours, r.intervalHours]),
  num<MaintenanceUsageRow>('remainingHours', 'console.maintenance.remainingHours', 1),
  usedOf('days', 'console.maintenance.usedDays', (r) => [r.usedDays, r.intervalDays]),
  num<MaintenanceUsageRow>('remainingDays', 'console.maintenance.remainingDays'),
  text<MaintenanceUsageRow>('dueDay', 'console.maintenance.dueDay'),
];

export interface BreakRuleRow extends BehaviourCounts {
  date: string;
  driverId: number | null;
  driverName: string | null;
  shifts: string[];
  vehicleId: number;
  licence: string;
  overSpeed: number;
  total: number;
}

export const BREAK_RULE_COLUMNS: ReadonlyArray<ReportColumn<BreakRuleRow>> = [
  text<BreakRuleRow>('date', 'reports.ledger.date'),
  text<BreakRuleRow>('driverName', 'reports.columns.driver'),
  { key: 'shifts', labelKey: 'reports.columns.shift', kind: 'enum', enumPrefix: 'entity.schedule.enums.shift', value: (r) => r.shifts },
  text<BreakRuleRow>('licence', 'reports.ledger.licence'),
  num<BreakRuleRow>('overSpeed', 'reports.columns.overSpeed'),
  ...behaviourColumns<BreakRuleRow>(),
  num<BreakRuleRow>('total', 'reports.columns.violations'),
];

export interface ScheduleRow {
  id: number;
  date: string;
  shift: string;
  route: string | null;
  driverId: number;
  driverName: string;
  vehicleId: number | null;
  licence: string | null;
  mileageKm: number;
  drivingS: number;
  tripCount: number;
  firstDeparture: string | null;
  lastArrival: string | null;
}

export const SCHEDULE_COLUMNS: ReadonlyArray<ReportColumn<ScheduleRow>> = [
  text<ScheduleRow>('date', 'reports.ledger.date'),
  text<ScheduleRow>('driverName', 'reports.columns.driver'),
  { key: 'shift', labelKey: 'reports.columns.shift', kind: 'enum', enumPrefix: 'entity.schedule.enums.shift', value: (r) => r.shift },
  text<ScheduleRow>('licence', 'reports.ledger.licence'),
  text<ScheduleRow>('route', 'reports.columns.route'),
  { key: 'firstDeparture', labelKey: 'reports.columns.firstDeparture', kind: 'time', value: (r) => r.firstDeparture },
  { key: 'lastArrival', labelKey: 'reports.columns.lastArrival', kind: 'time', value: (r) => r.lastArrival },
  num<ScheduleRow>('mileageKm', 'reports.ledger.mileageKm', 1),
  { key: 'drivingH', labelKey: 'reports.ledger.drivingH', kind: 'number', digits: 2, value: (r) => hours(r.drivingS) },
  num<ScheduleRow>('tripCount', 'reports.ledger.tripCount'),
];

/** A cell as text in a language (`t`) and zone; numbers stay numbers for the xlsx (the console formats them for its locale). */
export function cellText<R>(
  col: ReportColumn<R>,
  row: R,
  t: (key: string) => string,
  time: (iso: string) => string,
): string | number | null {
  const v = col.value(row);
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return v;
  const list = typeof v === 'string' ? [v] : [...v];
  if (!list.length) return null;
  const shown = list.map((s) => (col.kind === 'enum' ? t(`${col.enumPrefix}.${s}`) : col.kind === 'time' ? time(s) : s));
  return shown.join('; ');
}
