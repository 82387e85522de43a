/**
 * One chart through echarts-for-react on echarts/core, registering only the chart types and
 * components the console draws (bar, line, pie; grid, tooltip, legend), so no page pulls all of
 * echarts. It fills its card's width and follows it when the sidebar folds or a kept-alive tab
 * comes back (echarts-for-react watches the element's size). Loading shows a skeleton, no data
 * the empty state.
 */

import { Empty, Skeleton } from 'antd';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import type { EChartsCoreOption } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/lib/core';
import { useRef } from 'react';
import { chartLayout } from './chartLayout';

echarts.use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export interface EChartProps {
  option: EChartsCoreOption;
  loading: boolean;
  empty: boolean;
  emptyText: string;
  height?: number;
  testId?: string;
  /** A click on a bar, slice or point: its data index and name. */
  onItemClick?: (item: { dataIndex: number; name: string; seriesIndex: number }) => void;
}

export default function EChart({ option, loading, empty, emptyText, height = 280, testId, onItemClick }: EChartProps) {
  const box = useRef<HTMLDivElement>(null);
  if (loading) return <Skeleton active paragraph={{ rows: 6 }} data-testid={testId ? `${testId}-loading` : undefined} />;
  if (empty)
    return (
      <div
        style={{ height, display: 'flex', alignItems: 'center', justifyContent: 'center' }}
        data-testid={testId ? `${testId}-empty` : undefined}
      >
        <Empty description={emptyText} />
      </div>
    );
  return (
    <div data-testid={testId} ref={box}>
      <ReactEChartsCore
        echarts={echarts}
        option={option}
        notMerge
        style={{ height, width: '100%' }}
        onChartReady={(chart: echarts.ECharts) =>
          // Each drawing done (first, new data, a resize): where its legend and axes went, on the element.
          chart.on('finished', () => box.current?.setAttribute('data-layout', JSON.stringify(chartLayout(chart))))
        }
        onEvents={onItemClick ? { click: (p: { dataIndex: number; name: string; seriesIndex: number }) => onItemClick(p) } : undefined}
      />
    </div>
  );
}
