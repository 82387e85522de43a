import { LineChart } from 'echarts/charts';
import { GridComponent, MarkLineComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef, useState } from 'react';
import type { ReplayPoint } from '../../services/vehicleDetail';
import { timeOf } from './playback';

echarts.use([LineChart, GridComponent, MarkLineComponent, TooltipComponent, CanvasRenderer]);

export interface SpeedChartProps {
  points: readonly ReplayPoint[];
  /** The playback clock (epoch ms): a vertical line marks it, moving with the marker. */
  at: number;
  /** A click on the chart seeks there. */
  onSeek: (t: number) => void;
  unit: string;
}

/**
 * The track's speed over time with a cursor at the playback clock. The series is set once per
 * track; each clock step only moves the cursor (a merge of the mark line), so a month stays smooth.
 */
export default function SpeedChart({ points, at, onSeek, unit }: SpeedChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const seek = useRef(onSeek);
  seek.current = onSeek;
  const [cursorX, setCursorX] = useState<number | null>(null);

  useEffect(() => {
    if (!box.current) return undefined;
    const c = echarts.init(box.current);
    chart.current = c;
    c.setOption({
      animation: false,
      grid: { left: 44, right: 16, top: 16, bottom: 28 },
      tooltip: { trigger: 'axis' },
      xAxis: { type: 'time' },
      yAxis: { type: 'value', name: unit, nameGap: 8 },
      series: [
        {
          id: 'speed',
          type: 'line',
          showSymbol: false,
          sampling: 'lttb',
          lineStyle: { width: 1.5, color: '#1677ff' },
          areaStyle: { color: 'rgba(22,119,255,0.12)' },
          data: points.map((p) => [timeOf(p), p[3]]),
          markLine: {
            symbol: 'none',
            silent: true,
            animation: false,
            label: { show: false },
            lineStyle: { color: '#f5222d', width: 2, type: 'solid' },
            data: [],
          },
        },
      ],
    });
    // A click anywhere on the plot seeks to the time under the pointer.
    c.getZr().on('click', (e: { offsetX: number; offsetY: number }) => {
      if (!c.containPixel('grid', [e.offsetX, e.offsetY])) return;
      const t = c.convertFromPixel({ xAxisIndex: 0 }, e.offsetX);
      if (typeof t === 'number' && Number.isFinite(t)) seek.current(t);
    });
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => c.resize());
    observer?.observe(box.current);
    return () => {
      observer?.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, [points, unit]);

  useEffect(() => {
    const c = chart.current;
    if (!c) return;
    c.setOption({ series: [{ id: 'speed', markLine: { data: [{ xAxis: at }] } }] }, { lazyUpdate: true });
    const x = c.convertToPixel({ xAxisIndex: 0 }, at);
    setCursorX(typeof x === 'number' && Number.isFinite(x) ? Math.round(x) : null);
  }, [at, points]);

  return <div ref={box} style={{ height: 160 }} data-testid="speed-chart" data-at={at} data-cursor-x={cursorX ?? ''} />;
}
