/** The health page's pure parts: band colours and the trend chart's option. */

import type { EChartsCoreOption } from 'echarts/core';
import type { FormatNumber } from '../../components/charts/numberFormat';
import { HEALTH_BANDS, type HealthBand, type HealthDay } from '../../services/behaviour';
import { seriesOption } from './statisticsModel';

export const BAND_COLOURS: Record<HealthBand, string> = { healthy: 'green', attention: 'gold', fault: 'red' };

/** Vehicles per band by day as bars, the mean index as a line on the right axis. */
export function healthTrendOption(days: readonly HealthDay[], t: (key: string) => string, fmt: FormatNumber): EChartsCoreOption {
  return seriesOption(
    days.map((d) => d.date),
    [
      ...HEALTH_BANDS.map((b) => ({ name: t(`reports.bands.${b}`), kind: 'bar' as const, values: days.map((d) => d[b]), digits: 0 })),
      { name: t('reports.columns.healthIndex'), kind: 'line', right: true, values: days.map((d) => d.index), digits: 1 },
    ],
    fmt,
  );
}
