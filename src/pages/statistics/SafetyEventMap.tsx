import L from 'leaflet';
import { useEffect, useRef } from 'react';
import BaseMap from '../../components/map/BaseMap';
import { toMapLatLng } from '../../components/map/projection';
import type { SafetyEvent } from '../../services/behaviour';
import type { MapConfig } from '../../services/location';
import { escapeHtml } from '../../utils/escapeHtml';
import { eventKey, KIND_COLOURS, placedEvents } from './safetyExplainModel';

export interface SafetyEventMapProps {
  config: MapConfig;
  events: readonly SafetyEvent[];
  /** The tooltip of an event (already translated). */
  labelOf(e: SafetyEvent): string;
  /** The event picked in the table: the map centres on it. */
  picked: string | null;
  onPick(key: string): void;
}

/** Each event with a place as a drawn marker in its kind's colour; a dismissed one hollow. */
export default function SafetyEventMap({ config, events, labelOf, picked, onPick }: SafetyEventMapProps) {
  const map = useRef<L.Map | null>(null);
  const layer = useRef<L.LayerGroup | null>(null);
  const markers = useRef(new Map<string, L.CircleMarker>());
  const project = (lat: number, lng: number) => toMapLatLng(lat, lng, config.coordSystem);
  const props = useRef({ events, labelOf, onPick });
  props.current = { events, labelOf, onPick };

  const draw = () => {
    const m = map.current;
    const group = layer.current;
    if (!m || !group) return;
    group.clearLayers();
    markers.current.clear();
    const placed = placedEvents(props.current.events);
    for (const e of placed) {
      const colour = KIND_COLOURS[e.kind];
      const dismissed = e.review?.state === 'dismissed';
      const marker = L.circleMarker(project(e.latitude, e.longitude), {
        radius: 7,
        weight: 3,
        color: colour,
        fillColor: dismissed ? '#fff' : colour,
        fillOpacity: 0.85,
      })
        .bindTooltip(escapeHtml(props.current.labelOf(e)))
        .on('click', () => props.current.onPick(eventKey(e)))
        .addTo(group);
      markers.current.set(eventKey(e), marker);
    }
    if (placed.length) m.fitBounds(L.latLngBounds(placed.map((e) => project(e.latitude, e.longitude))), { padding: [30, 30], maxZoom: 16 });
  };

  // eslint-disable-next-line react-hooks/exhaustive-deps -- redrawn when the events change; the rest is read through refs
  useEffect(draw, [events]);

  useEffect(() => {
    const marker = picked ? markers.current.get(picked) : undefined;
    if (marker && map.current) {
      map.current.panTo(marker.getLatLng());
      marker.openTooltip();
    }
  }, [picked]);

  return (
    <BaseMap
      config={config}
      testId="safety-explain-map"
      style={{ height: 380 }}
      onReady={(m) => {
        map.current = m;
        layer.current = L.layerGroup().addTo(m);
        draw();
        return () => {
          map.current = null;
          layer.current = null;
        };
      }}
    />
  );
}
