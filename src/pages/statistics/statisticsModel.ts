/** The statistics pages' pure parts: rates and chart options from ledger rows. */

import type { EChartsCoreOption } from 'echarts/core';
import type { FormatNumber } from '../../components/charts/numberFormat';
import type { StatsCriteria } from '../../components/statistics/statsCriteria';
import type { LedgerCriteria } from '../../services/reports';
import { escapeHtml } from '../../utils/escapeHtml';

export { per100Km } from '../../../schemas/kit/reportColumns';

export const ledgerCriteriaOf = (c: StatsCriteria): LedgerCriteria => ({
  begin: c.begin,
  end: c.end,
  orgId: c.orgId,
  vehicleId: c.vehicleId,
});

export interface SeriesSpec {
  name: string;
  values: Array<number | null>;
  kind: 'bar' | 'line';
  /** Drawn against the right-hand axis. */
  right?: boolean;
  digits: number;
  /** Bars of the same stack are drawn on top of each other. */
  stack?: string;
}

/** Bars and lines over a category axis (days or months), with a tooltip and a legend. */
export function seriesOption(categories: readonly string[], series: readonly SeriesSpec[], fmt: FormatNumber): EChartsCoreOption {
  const twoAxes = series.some((s) => s.right);
  return {
    tooltip: {
      trigger: 'axis',
      // The answer is HTML: the marker is ECharts' own markup, the names (labels) are escaped.
      formatter: (items: Array<{ axisValue: string; seriesIndex: number; marker: string; seriesName: string; value: number | null }>) =>
        [
          escapeHtml(items[0]?.axisValue),
          ...items.map((i) => `${i.marker}${escapeHtml(i.seriesName)}: ${fmt(i.value, series[i.seriesIndex]?.digits ?? 0)}`),
        ].join('<br/>'),
    },
    // One line at most (a scroll legend never wraps onto the axes), above the grid's top.
    legend: { type: 'scroll', data: series.map((s) => s.name), top: 0 },
    grid: { left: 8, right: 8, top: 32, bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: [...categories] },
    yAxis: [
      // Counts only on the left: whole ticks (fractions would all read as the same rounded number).
      {
        type: 'value',
        axisLabel: { formatter: (v: number) => fmt(v) },
        minInterval: series.every((s) => s.right || s.digits === 0) ? 1 : undefined,
      },
      ...(twoAxes ? [{ type: 'value', axisLabel: { formatter: (v: number) => fmt(v, 1) }, splitLine: { show: false } }] : []),
    ],
    series: series.map((s) => ({
      name: s.name,
      type: s.kind,
      yAxisIndex: s.right ? 1 : 0,
      data: s.values,
      stack: s.stack,
      barMaxWidth: 24,
      smooth: s.kind === 'line',
    })),
  };
}
