/** The safety page's pure parts: the score trend and the harsh events by day. */

import type { EChartsCoreOption } from 'echarts/core';
import type { FormatNumber } from '../../components/charts/numberFormat';
import type { SafetyDay } from '../../services/behaviour';
import { seriesOption } from './statisticsModel';

const EVENTS = ['harshAcceleration', 'harshBraking', 'sharpTurn', 'fatigue'] as const;

/** The fleet's score (distance-weighted) by day as a line, the distance driven as bars on the right axis. */
export function scoreTrendOption(days: readonly SafetyDay[], t: (key: string) => string, fmt: FormatNumber): EChartsCoreOption {
  return seriesOption(
    days.map((d) => d.date),
    [
      { name: t('reports.columns.score'), kind: 'line', values: days.map((d) => d.score), digits: 1 },
      { name: t('reports.ledger.mileageKm'), kind: 'bar', right: true, values: days.map((d) => d.distanceKm), digits: 1 },
    ],
    fmt,
  );
}

/** Each kind of event by day as bars, the minutes speeding as a line on the right axis. */
export function harshEventsOption(days: readonly SafetyDay[], t: (key: string) => string, fmt: FormatNumber): EChartsCoreOption {
  return seriesOption(
    days.map((d) => d.date),
    [
      ...EVENTS.map((k) => ({ name: t(`behaviour.fields.${k}`), kind: 'bar' as const, values: days.map((d) => d[k]), digits: 0 })),
      {
        name: t('reports.columns.speedingMin'),
        kind: 'line',
        right: true,
        values: days.map((d) => Math.round(d.speedingS / 6) / 10),
        digits: 1,
      },
    ],
    fmt,
  );
}
