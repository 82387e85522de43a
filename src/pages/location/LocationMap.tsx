import L from 'leaflet';
import { useEffect, useRef } from 'react';
import BaseMap from '../../components/map/BaseMap';
import type { MapConfig } from '../../services/location';
import { escapeHtml } from '../../utils/escapeHtml';

export interface LocationMapProps {
  /** Tiles from the server's configuration. */
  config: MapConfig;
  lat: number;
  lng: number;
  label: string;
}

/** A map of one vehicle; the marker is drawn, not an image, so nothing but the configured tiles is fetched. */
export default function LocationMap({ config, lat, lng, label }: LocationMapProps) {
  const map = useRef<L.Map | null>(null);
  const marker = useRef<L.CircleMarker | null>(null);
  const at = useRef({ lat, lng, label });
  at.current = { lat, lng, label };

  useEffect(() => {
    marker.current?.setLatLng([lat, lng]).setTooltipContent(escapeHtml(label));
    map.current?.panTo([lat, lng]);
  }, [lat, lng, label]);

  return (
    <BaseMap
      config={config}
      testId="location-map"
      style={{ height: 360 }}
      view={{ center: [lat, lng], zoom: 15 }}
      onReady={(m) => {
        const p = at.current;
        marker.current = L.circleMarker([p.lat, p.lng], { radius: 9, weight: 3, color: '#0c3467', fillColor: '#409EFF', fillOpacity: 0.9 })
          .bindTooltip(escapeHtml(p.label), { permanent: true, direction: 'top', offset: [0, -10] })
          .addTo(m);
        map.current = m;
        return () => {
          map.current = null;
          marker.current = null;
        };
      }}
    />
  );
}
