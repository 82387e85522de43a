/**
 * Where a chart drew its legend and its axes, and what its legend reads, in the chart's pixels: the
 * chart element carries it (data-layout) once drawn, so what a reader sees on the canvas can be
 * checked (a legend clear of the axes, a doughnut's legend with its counts).
 */

import type { ECharts } from 'echarts/core';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ChartLayout {
  legend: Box | null;
  legendText: string[];
  axes: Box | null;
}

/** A drawn element as zrender keeps it (the parts read here). */
interface Drawn {
  type?: string;
  style?: { text?: string };
  invisible?: boolean;
  transform?: number[] | null;
  getBoundingRect(): { clone(): DrawnRect };
  traverse?(cb: (el: Drawn) => void): void;
}
interface DrawnRect extends Box {
  applyTransform(m: number[]): void;
}

/** ECharts answers where a component was drawn only through its internal views (no public call does). */
interface Internals {
  getModel(): { findComponents(q: { mainType: string }): unknown[] };
  getViewOfComponentModel(model: unknown): { group: Drawn } | undefined;
}

function boxOf(group: Drawn): Box | null {
  const r = group.getBoundingRect().clone();
  if (group.transform) r.applyTransform(group.transform);
  return r.width > 0 && r.height > 0 ? { x: r.x, y: r.y, width: r.width, height: r.height } : null;
}

const union = (boxes: Array<Box | null>): Box | null =>
  boxes.reduce<Box | null>((u, b) => {
    if (!b) return u;
    if (!u) return b;
    const x = Math.min(u.x, b.x);
    const y = Math.min(u.y, b.y);
    return { x, y, width: Math.max(u.x + u.width, b.x + b.width) - x, height: Math.max(u.y + u.height, b.y + b.height) - y };
  }, null);

/** The legend's and the axes' boxes and the legend's texts, as the chart last drew them. */
export function chartLayout(chart: ECharts): ChartLayout {
  // Internal API (see Internals): the views ECharts keeps of its components.
  const inner = chart as unknown as Internals;
  const groups = (mainType: string) =>
    inner
      .getModel()
      .findComponents({ mainType })
      .map((m) => inner.getViewOfComponentModel(m)?.group)
      .filter((g): g is Drawn => g !== undefined);
  const legends = groups('legend');
  const legendText: string[] = [];
  for (const g of legends)
    g.traverse?.((el) => {
      if (el.type === 'text' && !el.invisible && el.style?.text) legendText.push(el.style.text);
    });
  return {
    legend: union(legends.map(boxOf)),
    legendText,
    axes: union([...groups('xAxis'), ...groups('yAxis')].map(boxOf)),
  };
}
