/**
 * The dashboard's pure parts: where each figure leads, and the chart options built from the
 * answers (no React, no calls), so the view only lays them out.
 */

import type { EChartsCoreOption } from 'echarts/core';
import type { FormatNumber } from '../../components/charts/numberFormat';
import type { AlarmCategory } from '../../services/alarms';
import type { Bucket, LedgerVehicleRow, VehicleCounts } from '../../services/reports';
import { escapeHtml } from '../../utils/escapeHtml';

export type CountKey = Exclude<keyof VehicleCounts, 'offline'>;
export const COUNT_KEYS: readonly CountKey[] = ['total', 'online', 'moving', 'parked', 'alarming', 'serviceExpiring'];

/** The page behind each vehicle count. */
export const COUNT_LINKS: Record<CountKey, string> = {
  total: '/fleet/vehicleList',
  online: '/fleet/monitor',
  moving: '/fleet/monitor',
  parked: '/fleet/monitor',
  // The vehicles with a current alarm: the every-category list's current tab shows exactly those alarms.
  alarming: '/alarm/all',
  serviceExpiring: '/fleet/servicePeriod',
};

export type LedgerKey = 'mileageKm' | 'fuelL' | 'cost';
export const LEDGER_KEYS: readonly LedgerKey[] = ['mileageKm', 'fuelL', 'cost'];
export const LEDGER_DIGITS: Record<LedgerKey, number> = { mileageKm: 1, fuelL: 1, cost: 2 };

/** The statistics page behind each ledger figure. */
export const LEDGER_LINKS: Record<LedgerKey, string> = {
  mileageKm: '/statistics/daily',
  fuelL: '/statistics/fuel',
  cost: '/statistics/cost',
};

/** The alarm centre page of an alarm's category (each category has one, terminal alarms too). */
export const alarmPagePath = (category: AlarmCategory | string): string =>
  category === 'fence' || category === 'obd' || category === 'terminal' || category === 'safety' ? `/alarm/${category}` : '/alarm/ai';

export type DistributionKey = 'byOrg' | 'byBrand' | 'byStatus';
export const DISTRIBUTION_KEYS: readonly DistributionKey[] = ['byOrg', 'byBrand', 'byStatus'];

/**
 * A doughnut of vehicles per bucket, its legend naming each bucket with its count; `label` names a
 * bucket (translated status, "no brand"…).
 */
export function distributionOption(buckets: readonly Bucket[], label: (b: Bucket) => string, fmt: FormatNumber): EChartsCoreOption {
  const data = buckets.map((b) => ({ name: label(b), value: b.count }));
  const counts = new Map(data.map((d) => [d.name, d.value]));
  return {
    // A formatter's answer is HTML: the bucket's name (an organisation's, a brand's, a label) is escaped.
    tooltip: {
      trigger: 'item',
      formatter: (p: { name: string; value: number; percent: number }) => `${escapeHtml(p.name)}: ${fmt(p.value)} (${fmt(p.percent, 1)}%)`,
    },
    legend: {
      type: 'scroll',
      orient: 'vertical',
      right: 0,
      top: 'middle',
      formatter: (name: string) => `${name}  ${fmt(counts.get(name) ?? 0)}`,
    },
    series: [
      {
        type: 'pie',
        radius: ['40%', '70%'],
        center: ['35%', '50%'],
        avoidLabelOverlap: true,
        label: { show: false },
        data,
      },
    ],
  };
}

/** Horizontal bars of the top vehicles, the largest on top. */
export function top7Option(
  rows: readonly LedgerVehicleRow[],
  by: 'mileageKm' | 'fuelL',
  seriesName: string,
  fmt: FormatNumber,
): EChartsCoreOption {
  const shown = [...rows].reverse();
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v: number) => fmt(v, 1) },
    // One line at most (a scroll legend never wraps), above the grid's top.
    legend: { type: 'scroll', data: [seriesName], top: 0 },
    grid: { left: 8, right: 24, top: 28, bottom: 8, containLabel: true },
    xAxis: { type: 'value', axisLabel: { formatter: (v: number) => fmt(v) } },
    yAxis: { type: 'category', data: shown.map((r) => r.licence) },
    series: [{ name: seriesName, type: 'bar', data: shown.map((r) => r[by]), barMaxWidth: 18 }],
  };
}
