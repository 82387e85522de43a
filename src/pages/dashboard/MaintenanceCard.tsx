import { Link } from '@umijs/max';
import { Card, Col, Row, Statistic, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { maintenanceStatus, type DueCounts } from '../../services/maintenance';
import { useNavigationState } from '../../session/navigationStore';
import { useT } from '../../session/useT';
import { STATE_COLOURS, STATUS_PAGE_KEY } from '../maintenance/maintenanceModel';

/** The due and overdue schedules of the caller's scope, leading to the maintenance status page. */
function MaintenanceCounts({ path }: { path: string }) {
  const t = useT();
  const [counts, setCounts] = useState<DueCounts | null>(null);
  useEffect(() => {
    let live = true;
    maintenanceStatus().then(
      (s) => live && setCounts(s.counts),
      () => live && setCounts({ ok: 0, due: 0, overdue: 0 }),
    );
    return () => {
      live = false;
    };
  }, []);
  return (
    <Card
      size="small"
      title={<Link to={path}>{t('console.dashboard.maintenance.title')}</Link>}
      loading={counts === null}
      data-testid="dashboard-maintenance"
    >
      <Row gutter={16}>
        {(['overdue', 'due'] as const).map((s) => (
          <Col key={s} span={12}>
            <Link to={path} data-testid={`dashboard-maintenance-${s}`}>
              <Statistic title={<Tag color={STATE_COLOURS[s]}>{t(`console.maintenance.states.${s}`)}</Tag>} value={counts?.[s] ?? 0} />
            </Link>
          </Col>
        ))}
      </Row>
    </Card>
  );
}

/** Shown only to members whose menu has the maintenance status page. */
export default function MaintenanceCard() {
  const nav = useNavigationState();
  const route = nav.status === 'ready' ? nav.nav.routes.find((r) => r.pageKey === STATUS_PAGE_KEY) : undefined;
  return route ? <MaintenanceCounts path={route.path} /> : null;
}
