import { Empty, Radio, Typography } from 'antd';
import { useState } from 'react';
import { useT } from '../../session/useT';
import LivePlayer from './LivePlayer';

/** Pictures a grid shows at once, and the columns each takes. */
export const GRID_SIZES = [1, 4, 9, 16] as const;
export type GridSize = (typeof GRID_SIZES)[number];

/**
 * A vehicle's cameras live side by side, 1, 4, 9 or 16 at once (channel 1 first); a cell beyond the
 * vehicle's channels stays empty. Each cell is a stream of its own (one upstream per channel on the
 * server, however many windows watch it).
 */
export default function VideoGrid({
  vehicleId,
  channels,
  label,
}: {
  vehicleId: number;
  channels: number[];
  label: (channel: number) => string;
}) {
  const t = useT();
  const [size, setSize] = useState<GridSize>(4);
  const columns = Math.sqrt(size);
  return (
    <div>
      <Radio.Group
        size="small"
        optionType="button"
        value={size}
        onChange={(e) => setSize(e.target.value as GridSize)}
        options={GRID_SIZES.map((s) => ({ value: s, label: t('console.video.gridOf', { count: s }) }))}
        data-testid="video-grid-size"
        style={{ marginBottom: 8 }}
      />
      <div data-testid="video-grid" data-size={size} style={{ display: 'grid', gridTemplateColumns: `repeat(${columns}, 1fr)`, gap: 4 }}>
        {Array.from({ length: size }, (_, i) => {
          const channel = channels[i];
          return (
            <div key={i} data-testid="video-grid-cell" style={{ minWidth: 0 }}>
              {channel === undefined ? (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={false} />
              ) : (
                <>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {label(channel)}
                  </Typography.Text>
                  <LivePlayer key={channel} vehicleId={vehicleId} channel={channel} />
                </>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
