/** A cluster's icon: its count inside a ring whose arcs are the shares of each status. Pure but for L.divIcon. */
import L from 'leaflet';
import { escapeHtml } from '../../utils/escapeHtml';

export interface ClusterSlice {
  key: string;
  colour: string;
  count: number;
}

/** `conic-gradient` stops for the slices, in their order; empty slices are left out. */
export function ringGradient(slices: readonly ClusterSlice[]): string {
  const total = slices.reduce((s, x) => s + x.count, 0);
  if (!total) return 'conic-gradient(#8c8c8c 0 100%)';
  let from = 0;
  const stops: string[] = [];
  for (const s of slices) {
    if (!s.count) continue;
    const to = from + (s.count / total) * 100;
    stops.push(`${s.colour} ${from.toFixed(2)}% ${to.toFixed(2)}%`);
    from = to;
  }
  return `conic-gradient(${stops.join(', ')})`;
}

/** Bigger clusters draw bigger, within 30–52 px. */
export const clusterSize = (count: number): number => Math.min(52, 30 + Math.round(Math.log10(Math.max(1, count)) * 8));

export function clusterIcon(slices: readonly ClusterSlice[], title: string): L.DivIcon {
  const count = slices.reduce((s, x) => s + x.count, 0);
  const size = clusterSize(count);
  const inner = size - 10;
  const counts = slices.map((s) => `${s.key}:${s.count}`).join(',');
  const html =
    `<div data-testid="monitor-cluster" data-count="${count}" data-statuses="${counts}" title="${escapeHtml(title)}" ` +
    `style="width:${size}px;height:${size}px;border-radius:50%;background:${ringGradient(slices)};display:flex;align-items:center;justify-content:center;box-shadow:0 1px 4px rgba(0,0,0,.35)">` +
    `<span style="width:${inner}px;height:${inner}px;border-radius:50%;background:#fff;display:flex;align-items:center;justify-content:center;font:600 12px/1 sans-serif;color:#1f1f1f">${count}</span></div>`;
  return L.divIcon({ html, className: 'fs-cluster', iconSize: L.point(size, size) });
}
