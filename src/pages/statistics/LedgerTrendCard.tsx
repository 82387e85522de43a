import { Card, Segmented, Skeleton } from 'antd';
import { lazy, Suspense } from 'react';
import { useNumberFormat } from '../../components/charts/useNumberFormat';
import type { LedgerFigures } from '../../services/reports';
import { useT } from '../../session/useT';
import { per100Km, seriesOption } from './statisticsModel';
import type { Grain, LedgerSeries } from './useLedgerSeries';

const EChart = lazy(() => import('../../components/charts/EChart'));

export interface LedgerTrendCardProps {
  title: string;
  series: LedgerSeries;
  grain: Grain;
  onGrain(g: Grain): void;
  /** The figure drawn as bars; its amount per 100 km is the line. */
  figure: 'fuelL' | 'cost';
  barName: string;
  lineName: string;
  testId: string;
}

/** A ledger figure by day or month as bars, with its amount per 100 km as a line on the right axis. */
export default function LedgerTrendCard({ title, series, grain, onGrain, figure, barName, lineName, testId }: LedgerTrendCardProps) {
  const t = useT();
  const fmt = useNumberFormat();
  const periods = series.periods ?? [];
  const value = (p: LedgerFigures) => p[figure];
  const option = seriesOption(
    periods.map((p) => p.label),
    [
      { name: barName, kind: 'bar', values: periods.map(value), digits: figure === 'cost' ? 2 : 1 },
      { name: lineName, kind: 'line', right: true, values: periods.map((p) => per100Km(value(p), p.mileageKm)), digits: 2 },
    ],
    fmt,
  );
  return (
    <Card
      size="small"
      title={title}
      extra={
        <Segmented
          size="small"
          value={grain}
          onChange={(g) => onGrain(g as Grain)}
          options={[
            { value: 'day', label: t('console.statistics.byDay') },
            { value: 'month', label: t('console.statistics.byMonth') },
          ]}
        />
      }
    >
      <Suspense fallback={<Skeleton active />}>
        <EChart
          testId={testId}
          loading={series.loading}
          empty={!periods.length}
          emptyText={t('console.statistics.empty')}
          option={option}
        />
      </Suspense>
    </Card>
  );
}
