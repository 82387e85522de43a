import { useNavigate } from '@umijs/max';
import { Card, Skeleton, Space } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { SAFETY_RANK_COLUMNS, type SafetyRankRow } from '../../../schemas/kit/reportColumns';
import { useNumberFormat } from '../../components/charts/useNumberFormat';
import ReportExportButton from '../../components/statistics/ReportExportButton';
import ReportTable from '../../components/statistics/ReportTable';
import StatsFilter from '../../components/statistics/StatsFilter';
import { initialCriteria, type StatsCriteria } from '../../components/statistics/statsCriteria';
import { SAFETY_EXPORT, safetyReport } from '../../services/behaviour';
import { useT } from '../../session/useT';
import { harshEventsOption, scoreTrendOption } from './safetyModel';
import { ledgerCriteriaOf } from './statisticsModel';
import { useCriteriaData } from './useCriteriaData';

const EChart = lazy(() => import('../../components/charts/EChart'));

/** Safety: the fleet's score by day, harsh events by day and type, and the vehicles ranked by score. */
export default function SafetyPage() {
  const t = useT();
  const fmt = useNumberFormat();
  const navigate = useNavigate();
  const [criteria, setCriteria] = useState<StatsCriteria>(() => initialCriteria(30));
  const report = useCriteriaData(criteria, (c) => safetyReport(ledgerCriteriaOf(c)), { days: [], ranking: [] });
  const days = report?.days ?? [];

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="statistics-safety">
      <Card size="small">
        <StatsFilter value={criteria} onChange={setCriteria} />
      </Card>
      <Card size="small" title={t('console.statistics.safety.trend')}>
        <Suspense fallback={<Skeleton active />}>
          <EChart
            testId="safety-chart"
            loading={report === null}
            empty={!days.length}
            emptyText={t('console.statistics.empty')}
            option={scoreTrendOption(days, t, fmt)}
          />
        </Suspense>
      </Card>
      <Card size="small" title={t('console.statistics.safety.events')}>
        <Suspense fallback={<Skeleton active />}>
          <EChart
            testId="safety-events"
            loading={report === null}
            empty={!days.length}
            emptyText={t('console.statistics.empty')}
            option={harshEventsOption(days, t, fmt)}
          />
        </Suspense>
      </Card>
      <Card
        size="small"
        title={t('console.statistics.safety.ranking')}
        extra={
          <ReportExportButton
            url={SAFETY_EXPORT}
            body={() => ({ criteria: ledgerCriteriaOf(criteria) })}
            fileName={() => `${t('reports.sheets.safety')} ${criteria.begin}_${criteria.end}.xlsx`}
            rows={report?.ranking.length ?? null}
            testId="safety-export"
          />
        }
      >
        <ReportTable<SafetyRankRow>
          columns={SAFETY_RANK_COLUMNS}
          rows={report?.ranking ?? null}
          rowKey="vehicleId"
          testId="safety-ranking"
          // A vehicle's row opens the explanation of its score.
          onRow={(r) => ({ onClick: () => navigate(`/statistics/safetyExplain?vehicleId=${r.vehicleId}`), style: { cursor: 'pointer' } })}
          title={() => t('console.statistics.safety.rankHelp')}
        />
      </Card>
    </Space>
  );
}
