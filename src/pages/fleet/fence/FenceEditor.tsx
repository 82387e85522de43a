import '../../../components/map/leafletGlobal';
import '@geoman-io/leaflet-geoman-free';
import '@geoman-io/leaflet-geoman-free/dist/leaflet-geoman.css';
import { Button, InputNumber, Space, Typography } from 'antd';
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import type { FenceGeometry, FenceType } from '../../../../schemas/kit/fenceGeometry';
import BaseMap from '../../../components/map/BaseMap';
import { DRAW_SHAPE, fenceLayer, geometryOf } from '../../../components/map/fenceLayers';
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
const STYLE: L.PathOptions = { color: '#1677ff', weight: 3, fillOpacity: 0.15 };

type Editable = L.Layer & { pm?: { enable(o?: object): void }; getBounds?: () => L.LatLngBounds };

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

  // The type changed under a drawn shape: that shape no longer means anything.
  const drawnType = useRef(type);
  useEffect(() => {
    if (drawnType.current === type) return;
    drawnType.current = type;
    map.current?.pm.disableDraw();
    if (layer.current) clear();
  });

  return (
    <div data-testid="fence-editor" data-type={type} data-geometry={value ? JSON.stringify(value) : ''}>
      <Space wrap style={{ marginBottom: 8 }}>
        <Button size="small" type="primary" onClick={draw} disabled={!shape} data-testid="fence-draw">
          {t('console.fence.draw')}
        </Button>
        <Button size="small" onClick={clear} disabled={!value} data-testid="fence-clear">
          {t('console.fence.clear')}
        </Button>
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
          }
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
