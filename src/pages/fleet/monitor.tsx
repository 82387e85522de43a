import { UnorderedListOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Drawer, Space, Spin, Switch } from 'antd';
import { lazy, Suspense, useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { useIsMobile } from '../../shell/device';
import { useFillHeight } from '../../shell/useFillHeight';
import { useMapConfig } from '../../components/map/useMapConfig';
import { loadOrgTree, type OrgNode } from '../../services/entity';
import { useT } from '../../session/useT';
import { findOrg, orgCounts, statusCounts, statusOf, subtreeIds, visibleVehicles, type VehicleStatus } from './monitor/monitorModel';
import MonitorList, { type OrgTreeItem } from './monitor/MonitorList';
import { useMonitorFleet } from './monitor/useMonitorFleet';
import VehicleCard from './monitor/VehicleCard';

const MonitorMap = lazy(() => import('./monitor/MonitorMap'));

/** The chosen vehicle's card: top right over the map, or on a phone over its lower half, scrolling if longer. */
const CARD_BESIDE: CSSProperties = { position: 'absolute', top: 12, right: 12, zIndex: 1000 };
const CARD_BELOW: CSSProperties = {
  position: 'absolute',
  left: 8,
  right: 8,
  bottom: 8,
  zIndex: 1000,
  maxHeight: '50%',
  overflow: 'auto',
  display: 'flex',
  justifyContent: 'center',
};

/** The shell's content padding (shell.css .fs-content), which the map spans on a phone. */
const CONTENT_PADDING = 16;

/** The map is never shorter than this; a short window scrolls instead. */
const MAP_MIN_HEIGHT = 420;

/** Clear of Leaflet's zoom buttons (top left, 30 px wide at 10 px from the edges). */
const MAP_TOOLBAR: CSSProperties = {
  position: 'absolute',
  top: 10,
  left: 52,
  zIndex: 1000,
  padding: '2px 8px',
  background: '#fff',
  borderRadius: 4,
  boxShadow: '0 1px 5px rgba(0, 0, 0, 0.3)',
};

/** Live monitor (`fleet/monitor`): every vehicle in scope on the map, live over the WebSocket. */
export default function MonitorPage() {
  const t = useT();
  const config = useMapConfig();
  const { fleet, live, failed } = useMonitorFleet();
  const [orgTree, setOrgTree] = useState<OrgNode[]>([]);
  const [orgId, setOrgId] = useState<number | null>(null);
  const [keyword, setKeyword] = useState('');
  const [status, setStatus] = useState<VehicleStatus | null>(null);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [following, setFollowing] = useState(false);
  const mobile = useIsMobile();
  const [listOpen, setListOpen] = useState(false);
  const [plates, setPlates] = useState(false);
  const mapBox = useRef<HTMLDivElement>(null);
  // A phone's map reaches the screen's bottom edge; a desktop's stops at the content's padding.
  const mapHeight = useFillHeight(
    mapBox,
    mobile ? 0 : CONTENT_PADDING,
    MAP_MIN_HEIGHT,
    // What can stand above the map: the alerts, and the map itself once the fleet is loaded.
    `${Boolean(failed)} ${live === 'reconnecting'} ${Boolean(config && fleet)}`,
  );

  useEffect(() => {
    loadOrgTree().then(setOrgTree, () => setOrgTree([]));
  }, []);

  const counts = useMemo(() => (fleet ? orgCounts(orgTree, fleet) : new Map()), [orgTree, fleet]);
  const treeData = useMemo(() => {
    const toItem = (n: OrgNode): OrgTreeItem => {
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

  const list = (
    <MonitorList
      shown={shown}
      loaded={!!fleet}
      byStatus={byStatus}
      status={status}
      onStatus={setStatus}
      onKeyword={setKeyword}
      treeData={treeData}
      orgId={orgId}
      onOrg={setOrgId}
      selectedId={selectedId}
      onChoose={(id) => {
        choose(id);
        setListOpen(false);
      }}
    />
  );

  return (
    <div
      // On a phone the map takes the whole width (past the content's padding) and the list a drawer.
      style={mobile ? { margin: `-${CONTENT_PADDING}px` } : { display: 'flex', gap: 12 }}
      data-testid="monitor-page"
      data-live={live}
      data-vehicles={fleet?.size ?? -1}
    >
      {mobile ? (
        <Drawer
          open={listOpen}
          onClose={() => setListOpen(false)}
          placement="left"
          width="min(320px, 85vw)"
          title={t('console.monitor.listToggle', { count: shown.length })}
          styles={{ body: { padding: 8 } }}
          data-testid="monitor-drawer"
        >
          {list}
        </Drawer>
      ) : (
        <Card size="small" style={{ width: 280, flex: 'none' }} styles={{ body: { padding: 8 } }}>
          {list}
        </Card>
      )}
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
          <div ref={mapBox} style={{ position: 'relative' }}>
            <Suspense fallback={<Spin />}>
              <MonitorMap
                config={config}
                vehicles={shown}
                selectedId={selectedId}
                followId={following ? selectedId : null}
                plates={plates}
                cardBelow={mobile}
                height={mapHeight}
                onSelect={choose}
              />
            </Suspense>
            {/* Beside the zoom buttons, over the map. */}
            <Space size={8} style={MAP_TOOLBAR} data-testid="monitor-toolbar">
              {mobile && (
                <Button size="small" icon={<UnorderedListOutlined />} onClick={() => setListOpen(true)} data-testid="monitor-list-toggle">
                  {t('console.monitor.listToggle', { count: shown.length })}
                </Button>
              )}
              <label>
                <Switch size="small" checked={plates} onChange={setPlates} data-testid="monitor-plates" /> {t('console.monitor.showPlates')}
              </label>
            </Space>
          </div>
        ) : (
          <Spin style={{ display: 'block', margin: '80px auto' }} />
        )}
        {selected && (
          <div style={mobile ? CARD_BELOW : CARD_BESIDE}>
            <VehicleCard vehicle={selected} following={following} onFollow={setFollowing} onClose={() => setSelectedId(null)} />
          </div>
        )}
      </div>
    </div>
  );
}
