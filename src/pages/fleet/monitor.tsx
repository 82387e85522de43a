import { Alert, Badge, Card, Empty, Input, Space, Spin, Tag, Tree, Typography } from 'antd';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useMapConfig } from '../../components/map/useMapConfig';
import { loadOrgTree, type OrgNode } from '../../services/entity';
import { useT } from '../../session/useT';
import {
  findOrg,
  orgCounts,
  statusCounts,
  statusOf,
  STATUSES,
  STATUS_COLOURS,
  subtreeIds,
  visibleVehicles,
  type VehicleStatus,
} from './monitor/monitorModel';
import { useMonitorFleet } from './monitor/useMonitorFleet';
import VehicleCard from './monitor/VehicleCard';
import { useNumberFormat } from '../../components/charts/useNumberFormat';

const MonitorMap = lazy(() => import('./monitor/MonitorMap'));

/** Rows of the side list shown at once: the map shows them all, the list the first ones. */
const LIST_LIMIT = 200;

interface TreeItem {
  key: number;
  title: string;
  children?: TreeItem[];
}

/** Live monitor (`fleet/monitor`): every vehicle in scope on the map, live over the WebSocket. */
export default function MonitorPage() {
  const t = useT();
  const fmt = useNumberFormat();
  const config = useMapConfig();
  const { fleet, live, failed } = useMonitorFleet();
  const [orgTree, setOrgTree] = useState<OrgNode[]>([]);
  const [orgId, setOrgId] = useState<number | null>(null);
  const [keyword, setKeyword] = useState('');
  const [status, setStatus] = useState<VehicleStatus | null>(null);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [following, setFollowing] = useState(false);

  useEffect(() => {
    loadOrgTree().then(setOrgTree, () => setOrgTree([]));
  }, []);

  const counts = useMemo(() => (fleet ? orgCounts(orgTree, fleet) : new Map()), [orgTree, fleet]);
  const treeData = useMemo(() => {
    const toItem = (n: OrgNode): TreeItem => {
      const c = counts.get(n.value);
      return {
        key: n.value,
        title: `${n.label} (${c?.online ?? 0}/${c?.total ?? 0})`,
        ...(n.children?.length ? { children: n.children.map(toItem) } : {}),
      };
    };
    return orgTree.map(toItem);
  }, [orgTree, counts]);

  const orgIds = useMemo(() => {
    const node = orgId === null ? undefined : findOrg(orgTree, orgId);
    return node ? new Set(subtreeIds(node)) : null;
  }, [orgTree, orgId]);
  const inScope = useMemo(() => (fleet ? visibleVehicles(fleet, { orgIds, keyword, statuses: null }) : []), [fleet, orgIds, keyword]);
  const shown = useMemo(() => (status ? inScope.filter((v) => statusOf(v) === status) : inScope), [inScope, status]);
  const byStatus = useMemo(() => statusCounts(inScope), [inScope]);
  const selected = selectedId === null ? undefined : fleet?.get(selectedId);

  const choose = (id: number) => {
    setSelectedId(id);
    setFollowing(false);
  };

  return (
    <div style={{ display: 'flex', gap: 12 }} data-testid="monitor-page" data-live={live} data-vehicles={fleet?.size ?? -1}>
      <Card size="small" style={{ width: 280, flex: 'none' }} styles={{ body: { padding: 8 } }}>
        <Input.Search
          allowClear
          placeholder={t('console.monitor.search')}
          onChange={(e) => setKeyword(e.target.value)}
          data-testid="monitor-search"
        />
        <Space wrap size={4} style={{ margin: '8px 0' }}>
          {STATUSES.map((s) => (
            <Tag.CheckableTag key={s} checked={status === s} onChange={(on) => setStatus(on ? s : null)} data-testid={`status-${s}`}>
              <Badge color={STATUS_COLOURS[s]} /> {t(`console.monitor.status.${s}`)} {byStatus[s]}
            </Tag.CheckableTag>
          ))}
        </Space>
        {/* Mounted once the tree is there, so it opens expanded. */}
        {treeData.length > 0 && (
          <Tree
            blockNode
            defaultExpandAll
            treeData={treeData}
            selectedKeys={orgId === null ? [] : [orgId]}
            onSelect={(keys) => setOrgId(keys.length ? Number(keys[0]) : null)}
            style={{ maxHeight: 220, overflow: 'auto' }}
            data-testid="monitor-org-tree"
          />
        )}
        <div
          style={{
            maxHeight: 'calc(100vh - 520px)',
            minHeight: 160,
            overflow: 'auto',
            marginTop: 8,
          }}
          data-testid="monitor-list"
        >
          {shown.length === 0 && fleet && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />}
          {shown.slice(0, LIST_LIMIT).map((v) => (
            <div
              key={v.vehicleId}
              role="button"
              tabIndex={0}
              onClick={() => choose(v.vehicleId)}
              onKeyDown={(e) => e.key === 'Enter' && choose(v.vehicleId)}
              data-testid="monitor-row"
              data-vehicle-id={v.vehicleId}
              data-lat={v.latitude ?? ''}
              data-lng={v.longitude ?? ''}
              style={{
                display: 'flex',
                justifyContent: 'space-between',
                padding: '4px 6px',
                cursor: 'pointer',
                borderRadius: 4,
                background: v.vehicleId === selectedId ? '#e6f4ff' : undefined,
              }}
            >
              <span>
                <Badge color={STATUS_COLOURS[statusOf(v)]} /> {v.licence}
              </span>
              <Typography.Text type="secondary">
                {v.speed === null ? '' : t('console.monitor.speedValue', { speed: fmt(v.speed, 1) })}
              </Typography.Text>
            </div>
          ))}
          {shown.length > LIST_LIMIT && (
            <Typography.Text type="secondary">{t('console.monitor.more', { count: shown.length - LIST_LIMIT })}</Typography.Text>
          )}
        </div>
      </Card>
      <div style={{ flex: 1, position: 'relative', minWidth: 0 }}>
        {failed && <Alert type="error" showIcon message={t('console.monitor.loadFailed')} style={{ marginBottom: 8 }} />}
        {live === 'reconnecting' && (
          <Alert
            type="warning"
            showIcon
            message={t('console.monitor.reconnecting')}
            style={{ marginBottom: 8 }}
            data-testid="monitor-reconnecting"
          />
        )}
        {config && fleet ? (
          <Suspense fallback={<Spin />}>
            <MonitorMap
              config={config}
              vehicles={shown}
              selectedId={selectedId}
              followId={following ? selectedId : null}
              onSelect={choose}
            />
          </Suspense>
        ) : (
          <Spin style={{ display: 'block', margin: '80px auto' }} />
        )}
        {selected && (
          <div style={{ position: 'absolute', top: 12, right: 12, zIndex: 1000 }}>
            <VehicleCard vehicle={selected} following={following} onFollow={setFollowing} onClose={() => setSelectedId(null)} />
          </div>
        )}
      </div>
    </div>
  );
}
