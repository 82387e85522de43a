import { Link } from '@umijs/max';
import { Card, Col, Row, Statistic, Tag } from 'antd';
import { useNumberFormat } from '../../components/charts/useNumberFormat';
import { initialCriteria } from '../../components/statistics/statsCriteria';
import { HEALTH_BANDS, healthTotal } from '../../services/behaviour';
import { useT } from '../../session/useT';
import { BAND_COLOURS } from '../statistics/healthModel';
import { ledgerCriteriaOf } from '../statistics/statisticsModel';
import { useCriteriaData } from '../statistics/useCriteriaData';

/** The week's fixed range, built once: the card loads once per visit. */
const WEEK = initialCriteria(7);

/** The fleet's health bands (each vehicle's latest day this week) and its mean index, leading to the health page. */
export default function HealthBandsCard() {
  const t = useT();
  const fmt = useNumberFormat();
  const total = useCriteriaData(WEEK, (c) => healthTotal(ledgerCriteriaOf(c)), null);
  return (
    <Card
      size="small"
      title={<Link to="/statistics/health">{t('console.dashboard.health.title')}</Link>}
      loading={total === null}
      data-testid="dashboard-health"
    >
      <Row gutter={16}>
        <Col span={6}>
          <Link to="/statistics/health">
            <Statistic title={t('reports.columns.healthIndex')} value={fmt(total?.index ?? null, 1)} />
          </Link>
        </Col>
        {HEALTH_BANDS.map((b) => (
          <Col key={b} span={6}>
            <Link to="/statistics/health" data-testid={`dashboard-health-${b}`}>
              <Statistic title={<Tag color={BAND_COLOURS[b]}>{t(`reports.bands.${b}`)}</Tag>} value={fmt(total?.[b] ?? 0)} />
            </Link>
          </Col>
        ))}
      </Row>
    </Card>
  );
}
