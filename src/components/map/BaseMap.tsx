import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { useEffect, useRef, type CSSProperties } from 'react';
import type { MapConfig } from '../../services/location';
import { DEFAULT_VIEW } from './projection';

export interface BaseMapProps {
  config: MapConfig;
  /** Called once the map exists; what it returns runs when the map goes. */
  onReady: (map: L.Map) => void | (() => void);
  /** Where the map opens (before any tile loads); China by default. */
  view?: { center: [number, number]; zoom: number };
  /** Vector layers on one canvas (thousands of markers); SVG otherwise (a few layers, each an element). */
  canvas?: boolean;
  style?: CSSProperties;
  testId?: string;
}

/**
 * The one Leaflet map of the console: the configured tiles with their credit, or (MAP_TILE_URL=off)
 * a plain background; always a scale bar; zoom 19 at most (clustering asks the map for its limit, which
 * without tiles it would not have); with `canvas`, one canvas renderer for every vector
 * layer, so thousands of markers draw as one image.
 */
export default function BaseMap({ config, onReady, view = DEFAULT_VIEW, canvas = false, style, testId = 'base-map' }: BaseMapProps) {
  const box = useRef<HTMLDivElement>(null);
  const ready = useRef(onReady);
  ready.current = onReady;
  const start = useRef(view);

  useEffect(() => {
    if (!box.current) return undefined;
    const map = L.map(box.current, {
      preferCanvas: canvas,
      ...(canvas ? { renderer: L.canvas({ padding: 0.5 }) } : {}),
      attributionControl: Boolean(config.attribution),
      worldCopyJump: true,
      maxZoom: 19,
    });
    map.setView(start.current.center, start.current.zoom);
    if (config.tileUrl) L.tileLayer(config.tileUrl, { maxZoom: 19, attribution: config.attribution ?? undefined }).addTo(map);
    // Leaflet's own prefix links to its site: the tiles' credit is what must be shown.
    map.attributionControl?.setPrefix(false);
    L.control.scale({ imperial: false }).addTo(map);
    const done = ready.current(map);
    // The box may get its size after the first paint (tabs, flex): measure again then.
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => map.invalidateSize());
    observer?.observe(box.current);
    return () => {
      observer?.disconnect();
      if (typeof done === 'function') done();
      map.remove();
    };
  }, [config.tileUrl, config.attribution, canvas]);

  return (
    <div
      ref={box}
      data-testid={testId}
      data-tiles={config.tileUrl ? 'on' : 'off'}
      className={config.tileUrl ? undefined : 'fs-map-plain'}
      style={{ height: 480, borderRadius: 8, background: config.tileUrl ? undefined : '#eef2f6', ...style }}
    />
  );
}
