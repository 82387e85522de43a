import L from 'leaflet';
import { useEffect, useRef } from 'react';
import BaseMap from '../../components/map/BaseMap';
import { HeadingMarker } from '../../components/map/headingMarker';
import { toMapLatLng } from '../../components/map/projection';
import type { MapConfig } from '../../services/location';
import { replayTrack, type AlarmRow, type Replay, type ReplayPoint } from '../../services/vehicleDetail';
import { colouredRuns, DETAIL_ZOOM, pointsBetween, windowInView } from './playback';
import { escapeHtml } from '../../utils/escapeHtml';

export interface TrackMapProps {
  config: MapConfig;
  vehicleId: number;
  replay: Replay;
  alarms: readonly AlarmRow[];
  /** The marker's place now. */
  at: { latitude: number; longitude: number; direction: number } | null;
  stopLabel: (durationS: number) => string;
  /** An alarm's tooltip text (its type, translated). */
  alarmLabel: (alarm: AlarmRow) => string;
  /** A trip or stop the user picked: the map zooms to its points (`seq` tells one pick from the next). */
  focus: { begin: number; end: number; seq: number } | null;
}

/** The track coloured by speed, its stops and alarms, the moving marker; zoomed in, the window in full. */
export default function TrackMap({ config, vehicleId, replay, alarms, at, stopLabel, alarmLabel, focus }: TrackMapProps) {
  const map = useRef<L.Map | null>(null);
  const marker = useRef<InstanceType<typeof HeadingMarker> | null>(null);
  const project = (lat: number, lng: number) => toMapLatLng(lat, lng, config.coordSystem);
  const props = useRef({ replay, alarms, stopLabel, alarmLabel });
  props.current = { replay, alarms, stopLabel, alarmLabel };

  useEffect(() => {
    if (at && marker.current) {
      marker.current.setLatLng(project(at.latitude, at.longitude));
      marker.current.setStyle({ heading: at.direction } as L.PathOptions);
    }
  });

  // A picked trip or stop: its points fill the view (a stop's single place is centred, zoomed in).
  useEffect(() => {
    const m = map.current;
    if (!focus || !m) return;
    const latlngs = pointsBetween(props.current.replay.points, focus.begin, focus.end).map(([la, ln]) => project(la, ln));
    if (latlngs.length > 1) m.fitBounds(L.latLngBounds(latlngs), { padding: [30, 30] });
    else if (latlngs.length === 1) m.setView(latlngs[0], Math.max(m.getZoom(), DETAIL_ZOOM));
    // `project` is rebuilt each render from the same config; the pick alone decides.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focus]);

  const draw = (m: L.Map) => {
    const { replay: r, alarms: a, stopLabel: label, alarmLabel: alarmText } = props.current;
    const layer = L.layerGroup().addTo(m);
    const line = (points: readonly ReplayPoint[], weight: number) =>
      colouredRuns(points).forEach((run) =>
        L.polyline(
          run.latlngs.map(([la, ln]) => project(la, ln)),
          { color: run.colour, weight },
        ).addTo(layer),
      );
    line(r.points, 4);
    for (const s of r.stops)
      L.circleMarker(project(s.latitude, s.longitude), { radius: 6, color: '#722ed1', fillOpacity: 0.8 })
        .bindTooltip(escapeHtml(label(s.durationS)))
        .addTo(layer);
    for (const al of a) {
      if (al.latitude === null || al.longitude === null) continue;
      L.circleMarker(project(al.latitude, al.longitude), { radius: 6, color: '#f5222d', fillColor: '#fff', fillOpacity: 1, weight: 3 })
        .bindTooltip(escapeHtml(alarmText(al)))
        .addTo(layer);
    }
    if (r.points.length) m.fitBounds(L.latLngBounds(r.points.map((p) => project(p[1], p[2]))), { padding: [30, 30] });
    const first = r.points[0];
    if (first)
      marker.current = new HeadingMarker(project(first[1], first[2]), {
        radius: 8,
        color: '#0c3467',
        fillColor: '#409EFF',
        fillOpacity: 1,
        heading: first[4],
      }).addTo(m);
    // Zoomed in: the window in view, every point (the whole range came simplified).
    const detail = L.layerGroup().addTo(m);
    let asked = 0;
    const onZoom = () => {
      detail.clearLayers();
      if (m.getZoom() < DETAIL_ZOOM) return;
      const b = m.getBounds();
      const w = windowInView(r.points, (la, ln) => b.contains(project(la, ln)));
      if (!w) return;
      const n = ++asked;
      replayTrack(vehicleId, w).then(
        (full) =>
          n === asked &&
          colouredRuns(full.points).forEach((run) =>
            L.polyline(
              run.latlngs.map(([la, ln]) => project(la, ln)),
              { color: run.colour, weight: 5 },
            ).addTo(detail),
          ),
        () => undefined,
      );
    };
    m.on('moveend', onZoom);
    return () => {
      m.off('moveend', onZoom);
      marker.current = null;
    };
  };

  return (
    <BaseMap
      key={`${replay.points.length}:${replay.points[0]?.[0] ?? ''}`}
      config={config}
      canvas
      testId="track-map"
      style={{ height: 460 }}
      onReady={(m) => {
        map.current = m;
        return draw(m);
      }}
    />
  );
}
