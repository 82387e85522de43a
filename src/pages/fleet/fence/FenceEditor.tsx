import '../../../components/map/leafletGlobal';
import '@geoman-io/leaflet-geoman-free';
import '@geoman-io/leaflet-geoman-free/dist/leaflet-geoman.css';
import { Button, InputNumber, Space, Typography } from 'antd';
import L from 'leaflet';
import { useEffect, useRef, useState } from 'react';
import type { FenceGeometry, FenceType } from '../../../../schemas/kit/fenceGeometry';
import BaseMap from '../../../components/map/BaseMap';
import { DRAW_SHAPE, fenceLayer, geometryOf } from '../../../components/map/fenceLayers';
import type { Extent } from '../../../components/map/fleetExtent';
import { toMapLatLng } from '../../../components/map/projection';
import { useFleetExtent } from '../../../components/map/useFleetExtent';
import type { MapConfig } from '../../../services/location';
import { useT } from '../../../session/useT';

export interface FenceEditorProps {
  config: MapConfig;
  type: FenceType;
  value?: FenceGeometry | null;
  onChange?: (g: FenceGeometry | null) => void;
}

/** A corridor's width when a route is first drawn (metres). */
export const DEFAULT_WIDTH = 100;
/** A circle's radius bounds (metres), as the fence schema has them. */
const RADIUS = { min: 1, max: 1_000_000 };
/** What the map shows when it opens: the fence being edited, the fleet, or (neither known) China. */
type View = 'fence' | 'fleet' | 'default';
const STYLE: L.PathOptions = { color: '#1677ff', weight: 3, fillOpacity: 0.15 };

type Editable = L.Layer & { pm?: { enable(o?: object): void; disable(): void }; getBounds?: () => L.LatLngBounds };

/** The fleet's extent on the configured tiles, as Leaflet bounds. */
const boundsOf = (e: Extent, coords: MapConfig['coordSystem']) =>
  L.latLngBounds([toMapLatLng(e.south, e.west, coords), toMapLatLng(e.north, e.east, coords)]);

/**
 * Draws and edits one fence on the map (Geoman): the type's shape (circle, polygon, rectangle, or
 * a route line with its corridor width), dragged and reshaped in place; every change is the form
 * value, in WGS-84 as the server stores it. A polygon cannot be drawn crossing itself. Geoman's own
 * tooltips are off: the hint above the map says what to do, in the console's language.
 */
export default function FenceEditor({ config, type, value, onChange }: FenceEditorProps) {
  const t = useT();
  const map = useRef<L.Map | null>(null);
  const layer = useRef<Editable | null>(null);
  const props = useRef({ type, value, onChange });
  props.current = { type, value, onChange };
  const shape = DRAW_SHAPE[type];
  const extent = useFleetExtent();
  const [view, setView] = useState<View>('default');

  const emit = (l: L.Layer) => {
    const { type: ty, value: v, onChange: change } = props.current;
    change?.(geometryOf(ty, l, config.coordSystem, ty === 'route' ? (v?.width ?? DEFAULT_WIDTH) : undefined));
  };

  /** Makes `l` the fence: the only drawn layer, editable, reporting each edit. */
  const adopt = (m: L.Map, l: Editable) => {
    if (layer.current && layer.current !== l) layer.current.remove();
    layer.current = l;
    if (!m.hasLayer(l)) l.addTo(m);
    l.pm?.enable({ allowSelfIntersection: false });
    l.on('pm:edit', () => emit(l));
  };

  const clear = () => {
    layer.current?.remove();
    layer.current = null;
    props.current.onChange?.(null);
  };

  const draw = () => {
    const m = map.current;
    if (!m || !shape) return;
    m.pm.enableDraw(shape, {
      tooltips: false,
      allowSelfIntersection: false,
      pathOptions: STYLE,
      templineStyle: STYLE,
      hintlineStyle: { ...STYLE, dashArray: '5,5' },
    });
  };

  /** A new fence opens on the fleet (its vehicles' extent), not on all of China, once that is known. */
  const showFleet = (m: L.Map, e: Extent | null) => {
    if (!e || layer.current) return;
    m.fitBounds(boundsOf(e, config.coordSystem), { padding: [30, 30], maxZoom: 14 });
    setView('fleet');
  };
  useEffect(() => {
    if (map.current && view === 'default') showFleet(map.current, extent);
    // Only the extent's arrival moves the map; later views are the person's.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [extent]);

  /** A radius typed in: the drawn circle takes it, or, none drawn yet, a circle of it in the map's centre. */
  const setRadius = (r: number | null) => {
    const m = map.current;
    if (!m || typeof r !== 'number' || r < RADIUS.min || r > RADIUS.max) return;
    const current = layer.current;
    if (current instanceof L.Circle) {
      current.setRadius(r);
      // Geoman's handles follow the shape only when its editing starts again.
      current.pm?.disable();
      current.pm?.enable({ allowSelfIntersection: false });
      emit(current);
      return;
    }
    m.pm.disableDraw();
    const circle = L.circle(m.getCenter(), { radius: r, ...STYLE }) as Editable;
    adopt(m, circle);
    emit(circle);
  };

  // The type changed under a drawn shape: that shape no longer means anything.
  const drawnType = useRef(type);
  useEffect(() => {
    if (drawnType.current === type) return;
    drawnType.current = type;
    map.current?.pm.disableDraw();
    if (layer.current) clear();
  });

  return (
    <div data-testid="fence-editor" data-type={type} data-view={view} data-geometry={value ? JSON.stringify(value) : ''}>
      <Space wrap style={{ marginBottom: 8 }}>
        <Button size="small" type="primary" onClick={draw} disabled={!shape} data-testid="fence-draw">
          {t('console.fence.draw')}
        </Button>
        <Button size="small" onClick={clear} disabled={!value} data-testid="fence-clear">
          {t('console.fence.clear')}
        </Button>
        {type === 'circle' && (
          <Space size={4}>
            <Typography.Text>{t('console.fence.radius')}</Typography.Text>
            <InputNumber
              size="small"
              min={RADIUS.min}
              max={RADIUS.max}
              precision={1}
              value={value?.radius ?? null}
              onChange={setRadius}
              data-testid="fence-radius"
            />
          </Space>
        )}
        {type === 'route' && (
          <Space size={4}>
            <Typography.Text>{t('console.fence.width')}</Typography.Text>
            <InputNumber
              size="small"
              min={1}
              max={10000}
              value={value?.width ?? DEFAULT_WIDTH}
              onChange={(w) => value?.path && typeof w === 'number' && onChange?.({ ...value, width: w })}
              data-testid="fence-width"
            />
          </Space>
        )}
      </Space>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 6 }}>
        {t(`console.fence.hint.${type}`)}
      </Typography.Paragraph>
      <BaseMap
        config={config}
        testId="fence-map"
        style={{ height: 320 }}
        onReady={(m) => {
          map.current = m;
          const { type: ty, value: v } = props.current;
          const start: Editable | null = v ? fenceLayer(ty, v, config.coordSystem, STYLE) : null;
          if (start) {
            adopt(m, start);
            const b = start.getBounds?.();
            if (b?.isValid()) m.fitBounds(b, { padding: [30, 30], maxZoom: 16 });
            setView('fence');
          } else showFleet(m, extent);
          const created = (e: { layer: L.Layer }) => {
            adopt(m, e.layer as Editable);
            emit(e.layer);
          };
          m.on('pm:create', created);
          return () => {
            m.off('pm:create', created);
            layer.current = null;
            map.current = null;
          };
        }}
      />
    </div>
  );
}
