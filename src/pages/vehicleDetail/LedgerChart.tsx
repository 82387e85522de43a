import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

echarts.use([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export interface LedgerChartProps {
  months: readonly string[];
  series: readonly { name: string; values: readonly number[]; type: 'bar' | 'line' }[];
}

/** Monthly ledger figures as bars and lines. */
export default function LedgerChart({ months, series }: LedgerChartProps) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!box.current) return undefined;
    const chart = echarts.init(box.current);
    chart.setOption({
      tooltip: { trigger: 'axis' },
      // One line at most (a scroll legend never wraps onto the axes), above the grid's top.
      legend: { type: 'scroll', top: 0 },
      grid: { left: 48, right: 48, bottom: 32, top: 40 },
      xAxis: { type: 'category', data: [...months] },
      yAxis: [{ type: 'value' }, { type: 'value' }],
      series: series.map((s, i) => ({ name: s.name, type: s.type, data: [...s.values], yAxisIndex: i === 0 ? 0 : 1 })),
    });
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => chart.resize());
    observer?.observe(box.current);
    return () => {
      observer?.disconnect();
      chart.dispose();
    };
  }, [months, series]);
  return <div ref={box} style={{ height: 300 }} data-testid="ledger-chart" />;
}
