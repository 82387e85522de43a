import { Badge, Empty, Input, Space, Tag, Tree, Typography } from 'antd';
import type { MonitorItem } from '../../../services/monitor';
import { useNumberFormat } from '../../../components/charts/useNumberFormat';
import { useT } from '../../../session/useT';
import { statusOf, STATUSES, STATUS_COLOURS, type VehicleStatus } from './monitorModel';

/** Rows of the list shown at once: the map shows them all, the list the first ones. */
const LIST_LIMIT = 200;

export interface OrgTreeItem {
  key: number;
  title: string;
  children?: OrgTreeItem[];
}

export interface MonitorListProps {
  /** The vehicles listed (in scope and of the chosen status). */
  shown: readonly MonitorItem[];
  /** Whether the fleet has loaded (an empty list then says so). */
  loaded: boolean;
  byStatus: Record<VehicleStatus, number>;
  status: VehicleStatus | null;
  onStatus: (status: VehicleStatus | null) => void;
  onKeyword: (keyword: string) => void;
  treeData: readonly OrgTreeItem[];
  orgId: number | null;
  onOrg: (orgId: number | null) => void;
  selectedId: number | null;
  onChoose: (vehicleId: number) => void;
}

/** The monitor's search, status filters, organisation tree and vehicle list: beside the map, or in a drawer on a phone. */
export default function MonitorList(p: MonitorListProps) {
  const t = useT();
  const fmt = useNumberFormat();
  return (
    <>
      <Input.Search
        allowClear
        placeholder={t('console.monitor.search')}
        onChange={(e) => p.onKeyword(e.target.value)}
        data-testid="monitor-search"
      />
      <Space wrap size={4} style={{ margin: '8px 0' }}>
        {STATUSES.map((s) => (
          <Tag.CheckableTag key={s} checked={p.status === s} onChange={(on) => p.onStatus(on ? s : null)} data-testid={`status-${s}`}>
            <Badge color={STATUS_COLOURS[s]} /> {t(`console.monitor.status.${s}`)} {p.byStatus[s]}
          </Tag.CheckableTag>
        ))}
      </Space>
      {/* Mounted once the tree is there, so it opens expanded. */}
      {p.treeData.length > 0 && (
        <Tree
          blockNode
          defaultExpandAll
          treeData={[...p.treeData]}
          selectedKeys={p.orgId === null ? [] : [p.orgId]}
          onSelect={(keys) => p.onOrg(keys.length ? Number(keys[0]) : null)}
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
        {p.shown.length === 0 && p.loaded && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />}
        {p.shown.slice(0, LIST_LIMIT).map((v) => (
          <div
            key={v.vehicleId}
            role="button"
            tabIndex={0}
            onClick={() => p.onChoose(v.vehicleId)}
            onKeyDown={(e) => e.key === 'Enter' && p.onChoose(v.vehicleId)}
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
              background: v.vehicleId === p.selectedId ? '#e6f4ff' : undefined,
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
        {p.shown.length > LIST_LIMIT && (
          <Typography.Text type="secondary">{t('console.monitor.more', { count: p.shown.length - LIST_LIMIT })}</Typography.Text>
        )}
      </div>
    </>
  );
}
