import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { useEffect, useRef } from 'react';

export interface LocationMapProps {
  /** Tile URL template from the server's configuration. */
  tileUrl: string;
  lat: number;
  lng: number;
  label: string;
}

/**
 * A map of one vehicle, loaded only when the server names a tile source. The marker is drawn, not
 * an image, so nothing but the configured tiles is fetched; no attribution links to elsewhere.
 */
export default function LocationMap({ tileUrl, lat, lng, label }: LocationMapProps) {
  const box = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const marker = useRef<L.CircleMarker | null>(null);

  useEffect(() => {
    if (!box.current) return undefined;
    const m = L.map(box.current, { attributionControl: false }).setView([lat, lng], 15);
    L.tileLayer(tileUrl, { maxZoom: 19 }).addTo(m);
    marker.current = L.circleMarker([lat, lng], { radius: 9, weight: 3, color: '#0c3467', fillColor: '#409EFF', fillOpacity: 0.9 })
      .bindTooltip(label, { permanent: true, direction: 'top', offset: [0, -10] })
      .addTo(m);
    map.current = m;
    return () => {
      m.remove();
      map.current = null;
    };
    // The map is made once per tile source; later positions move the marker (below).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tileUrl]);

  useEffect(() => {
    marker.current?.setLatLng([lat, lng]).setTooltipContent(label);
    map.current?.panTo([lat, lng]);
  }, [lat, lng, label]);

  return <div ref={box} style={{ height: 360, borderRadius: 8 }} data-testid="location-map" />;
}
