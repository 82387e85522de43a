import L from 'leaflet';
import '../../../components/map/leafletGlobal';
import 'leaflet.markercluster';
import 'leaflet.markercluster/dist/MarkerCluster.css';
import './monitor.css';
import { useEffect, useRef } from 'react';
import BaseMap from '../../../components/map/BaseMap';
import { clusterIcon } from '../../../components/map/clusterIcon';
import { fenceLayer } from '../../../components/map/fenceLayers';
import { openFences } from '../../../services/fences';
import { HeadingMarker, type HeadingMarkerOptions } from '../../../components/map/headingMarker';
import { toMapLatLng } from '../../../components/map/projection';
import type { MapConfig } from '../../../services/location';
import type { MonitorItem } from '../../../services/monitor';
import { useT } from '../../../session/useT';
import { hasPosition, statusOf, STATUSES, STATUS_COLOURS, type VehicleStatus } from './monitorModel';
import { escapeHtml } from '../../../utils/escapeHtml';
import { HALO_PANE, HALO_PANE_Z, haloMarker, PLAIN_STYLE, PLATE_TOOLTIPS, plateMode, SELECTED_STYLE, type PlateMode } from './plates';

export interface MonitorMapProps {
  config: MapConfig;
  vehicles: readonly MonitorItem[];
  selectedId: number | null;
  followId: number | null;
  /** Every vehicle's plate beside its marker (else a plate shows on hover). */
  plates: boolean;
  /** The chosen vehicle's card covers the map's lower half (a phone): a newly chosen vehicle is shown in the upper one. */
  cardBelow?: boolean;
  /** The map's height in px (the page lets it reach the window's bottom). */
  height: number;
  onSelect: (id: number) => void;
}

type Marker = L.CircleMarker & { options: HeadingMarkerOptions & { status: VehicleStatus }; plateMode?: PlateMode };

/** The group's types name L.Marker, but it clusters any layer with a position (circle markers too). */
const asMarker = (x: Marker) => x as unknown as L.Marker;

/** From this zoom on every vehicle draws on its own (a street: clusters would hide who is where). */
const CLUSTER_UNTIL_ZOOM = 16;

/** The fences' pane: beneath the vehicles' (the overlay pane, z-index 400), above the tiles (200). */
const FENCE_PANE = 'fences';
const FENCE_PANE_Z = '350';

/** Whether a point (layer pixels) falls on a drawn path: Leaflet's own hit test (private API, typed here once). */
const onPath = (l: L.Path, p: L.Point) => (l as L.Path & { _containsPoint(p: L.Point): boolean })._containsPoint(p);

/**
 * The vehicles as canvas markers coloured by status with heading arrows, clustered where they
 * crowd (each cluster shows its count and, as a ring, the share of each status); the followed one
 * stays centred, and choosing a vehicle opens its cluster.
 */
export default function MonitorMap({
  config,
  vehicles,
  selectedId,
  followId,
  plates,
  cardBelow = false,
  height,
  onSelect,
}: MonitorMapProps) {
  const t = useT();
  const map = useRef<L.Map | null>(null);
  const clusters = useRef<L.MarkerClusterGroup | null>(null);
  const markers = useRef(new Map<number, Marker>());
  const fitted = useRef(false);
  const shownSelected = useRef<number | null>(null);
  const halo = useRef<L.Marker | null>(null);
  const box = useRef<HTMLDivElement>(null);
  /** The vehicle under the pointer: it, not a fence beneath it, names itself. */
  const hoveredVehicle = useRef<number | null>(null);
  const select = useRef(onSelect);
  select.current = onSelect;
  const label = useRef(t);
  label.current = t;

  const sync = () => {
    const m = map.current;
    const group = clusters.current;
    if (!m || !group) return;
    const seen = new Set<number>();
    const added: Marker[] = [];
    let restyled = false;
    for (const v of vehicles) {
      if (!hasPosition(v)) continue;
      seen.add(v.vehicleId);
      const at = toMapLatLng(v.latitude, v.longitude, config.coordSystem);
      const status = statusOf(v);
      const colour = STATUS_COLOURS[status];
      const chosen = v.vehicleId === selectedId;
      const style = chosen
        ? {
            color: SELECTED_STYLE.ring,
            fillColor: colour,
            heading: v.direction,
            radius: SELECTED_STYLE.radius,
            weight: SELECTED_STYLE.weight,
            status,
          }
        : { color: colour, fillColor: colour, heading: v.direction, ...PLAIN_STYLE, status };
      const mode = plateMode(plates);
      let mk = markers.current.get(v.vehicleId);
      if (!mk) {
        mk = new HeadingMarker(at, { ...style, fillOpacity: 0.85 }) as Marker;
        const id = v.vehicleId;
        mk.on('click', () => select.current(id));
        mk.on('mouseover', () => (hoveredVehicle.current = id));
        mk.on('mouseout', () => hoveredVehicle.current === id && (hoveredVehicle.current = null));
        added.push(mk);
        markers.current.set(v.vehicleId, mk);
      } else {
        // The group follows a marker's 'move' and re-clusters it; a changed status repaints clusters.
        const old = mk.getLatLng();
        if (old.lat !== at[0] || old.lng !== at[1]) mk.setLatLng(at);
        if (mk.options.status !== status) restyled = true;
        mk.setStyle(style as L.PathOptions);
      }
      if (mk.plateMode !== mode) {
        mk.unbindTooltip();
        mk.bindTooltip(escapeHtml(v.licence), PLATE_TOOLTIPS[mode]);
        mk.plateMode = mode;
      }
      // Drawn last, so no neighbour covers it.
      if (chosen && m.hasLayer(mk)) mk.bringToFront();
    }
    if (added.length) group.addLayers(added);
    const gone: Marker[] = [];
    for (const [id, mk] of markers.current) {
      if (!seen.has(id)) {
        gone.push(mk);
        markers.current.delete(id);
      }
    }
    if (gone.length) group.removeLayers(gone);
    if (restyled) group.refreshClusters();
    if (!fitted.current && seen.size) {
      fitted.current = true;
      const bounds = L.latLngBounds([...markers.current.values()].map((x) => x.getLatLng()));
      m.fitBounds(bounds, { padding: [40, 40], maxZoom: 14 });
    }
    // A newly chosen vehicle inside a cluster: zoom until it stands alone.
    const chosen = selectedId === null ? undefined : markers.current.get(selectedId);
    if (!chosen) {
      halo.current?.remove();
      halo.current = null;
    } else {
      if (!halo.current) halo.current = haloMarker(chosen.getLatLng()).addTo(m);
      else halo.current.setLatLng(chosen.getLatLng());
      halo.current.getElement()?.setAttribute('data-vehicle-id', String(selectedId));
    }
    if (chosen && shownSelected.current !== selectedId) {
      if (cardBelow) {
        // Standing alone (no cluster at a street's zoom), half way across and a quarter of the way down: above the card.
        m.setView(chosen.getLatLng(), Math.max(m.getZoom(), CLUSTER_UNTIL_ZOOM), { animate: false });
        m.panBy([0, m.getSize().y / 4], { animate: false });
      } else group.zoomToShowLayer(asMarker(chosen));
    }
    shownSelected.current = selectedId;
    const followed = followId === null ? undefined : markers.current.get(followId);
    if (followed) {
      // Still inside a cluster: zoom to where every vehicle stands alone, centred on it.
      if (group.getVisibleParent(asMarker(followed)) !== asMarker(followed))
        m.setView(followed.getLatLng(), Math.max(m.getZoom(), CLUSTER_UNTIL_ZOOM), { animate: false });
      else m.panTo(followed.getLatLng(), { animate: false });
    }
  };

  useEffect(sync);

  return (
    <div ref={box} data-testid="monitor-map-box" data-markers={vehicles.filter(hasPosition).length}>
      <BaseMap
        config={config}
        testId="monitor-map"
        canvas
        style={{ height }}
        onReady={(m) => {
          map.current = m;
          fitted.current = false;
          m.createPane(HALO_PANE).style.zIndex = HALO_PANE_Z;
          const group = L.markerClusterGroup({
            chunkedLoading: true,
            showCoverageOnHover: false,
            disableClusteringAtZoom: CLUSTER_UNTIL_ZOOM,
            maxClusterRadius: 60,
            iconCreateFunction: (cluster) => {
              const counts = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<VehicleStatus, number>;
              for (const child of cluster.getAllChildMarkers() as unknown as Marker[]) counts[child.options.status] += 1;
              const slices = STATUSES.map((s) => ({ key: s, colour: STATUS_COLOURS[s], count: counts[s] }));
              const title = slices
                .filter((s) => s.count)
                .map((s) => `${label.current(`console.monitor.status.${s.key}`)} ${s.count}`)
                .join(' · ');
              return clusterIcon(slices, title);
            },
          });
          group.addTo(m);
          clusters.current = group;
          sync();
          // The open fences beneath the vehicles, outlined, on a canvas of their own in a pane below the
          // vehicles' canvas, so however many overlap, the pointer over a vehicle reaches the vehicle.
          // That canvas takes no pointer: the map names the fences under it (away from a vehicle) itself.
          m.createPane(FENCE_PANE).style.zIndex = FENCE_PANE_Z;
          const fenceRenderer = L.canvas({ pane: FENCE_PANE, padding: 0.5 });
          const fences = L.layerGroup().addTo(m);
          const names = new Map<L.Path, string>();
          const fenceTip = L.tooltip({ direction: 'top', offset: [0, -10], className: 'fs-fence-tooltip' });
          const nameFences = (e: L.LeafletMouseEvent) => {
            // A vehicle or a cluster (an element of the marker pane) under the pointer names itself.
            const onMarker = e.originalEvent.target instanceof Element && e.originalEvent.target.closest('.leaflet-marker-pane');
            const under =
              hoveredVehicle.current === null && !onMarker ? [...names].filter(([l]) => onPath(l, e.layerPoint)).map(([, n]) => n) : [];
            if (!under.length) {
              if (m.hasLayer(fenceTip)) m.closeTooltip(fenceTip);
              return;
            }
            fenceTip.setContent(under.map(escapeHtml).join('<br>')).setLatLng(e.latlng);
            if (!m.hasLayer(fenceTip)) m.openTooltip(fenceTip);
          };
          const leave = () => m.hasLayer(fenceTip) && m.closeTooltip(fenceTip);
          m.on('mousemove', nameFences);
          m.on('mouseout', leave);
          let gone = false;
          openFences().then(
            (page) => {
              if (gone) return;
              for (const f of page.data) {
                const l = fenceLayer(f.fenceType, f.geometry, config.coordSystem, {
                  color: '#722ed1',
                  weight: 2,
                  dashArray: '6,4',
                  fillOpacity: 0.06,
                  interactive: false,
                  pane: FENCE_PANE,
                  renderer: fenceRenderer,
                });
                if (!l) continue;
                l.addTo(fences);
                names.set(l, f.name);
              }
              box.current?.setAttribute('data-fences', String(fences.getLayers().length));
            },
            () => undefined,
          );
          return () => {
            gone = true;
            m.off('mousemove', nameFences);
            m.off('mouseout', leave);
            markers.current.clear();
            halo.current = null;
            clusters.current = null;
            map.current = null;
          };
        }}
      />
    </div>
  );
}
