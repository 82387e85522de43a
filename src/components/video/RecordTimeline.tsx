import { useRef, useState, type PointerEvent } from 'react';
import type { VideoRecord } from '../../services/video';
import { parseTime } from '../../utils/formatTime';

export interface RecordTimelineProps {
  /** The range shown, epoch ms. */
  from: number;
  to: number;
  records: VideoRecord[];
  /** The time playing now (the cursor), epoch ms. */
  position: number | null;
  /** A time clicked, or where a drag of the cursor was let go. */
  onPick: (at: number) => void;
}

const pct = (x: number) => `${Math.max(0, Math.min(100, x * 100))}%`;

/**
 * A range's recordings as bars on a line, with the playing time's cursor: a click plays from that
 * time, and dragging moves the cursor and plays from where it is let go.
 */
export default function RecordTimeline({ from, to, records, position, onPick }: RecordTimelineProps) {
  const line = useRef<HTMLDivElement>(null);
  const [dragAt, setDragAt] = useState<number | null>(null);
  const span = Math.max(1, to - from);
  const timeOf = (e: PointerEvent<HTMLDivElement>): number => {
    const r = line.current!.getBoundingClientRect();
    return Math.round(from + (Math.max(0, Math.min(r.width, e.clientX - r.left)) / Math.max(1, r.width)) * span);
  };
  const cursor = dragAt ?? position;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => from + f * span);
  return (
    <div>
      <div
        ref={line}
        data-testid="record-timeline"
        onPointerDown={(e) => {
          e.currentTarget.setPointerCapture?.(e.pointerId);
          setDragAt(timeOf(e));
        }}
        onPointerMove={(e) => dragAt !== null && setDragAt(timeOf(e))}
        onPointerUp={(e) => {
          setDragAt(null);
          onPick(timeOf(e));
        }}
        style={{ position: 'relative', height: 28, background: '#f0f0f0', borderRadius: 4, cursor: 'pointer', touchAction: 'none' }}
      >
        {records.map((r) => {
          const b = Date.parse(r.begin);
          const e = r.end ? Date.parse(r.end) : to;
          return (
            <div
              key={`${r.channel}-${r.begin}`}
              data-testid="record-bar"
              title={`${parseTime(b)} – ${parseTime(e)}`}
              style={{
                position: 'absolute',
                top: 6,
                height: 16,
                left: pct((b - from) / span),
                width: pct((e - b) / span),
                background: '#1677ff',
                opacity: 0.7,
                borderRadius: 2,
                pointerEvents: 'none',
              }}
            />
          );
        })}
        {cursor !== null && cursor >= from && cursor <= to && (
          <div
            data-testid="record-cursor"
            style={{
              position: 'absolute',
              top: 0,
              bottom: 0,
              width: 2,
              left: pct((cursor - from) / span),
              background: '#ff4d4f',
              pointerEvents: 'none',
            }}
          />
        )}
      </div>
      <div style={{ display: 'flex', justifyContent: 'space-between', fontSize: 12, color: '#888' }}>
        {ticks.map((t) => (
          <span key={t}>{parseTime(t, '{h}:{i}')}</span>
        ))}
      </div>
    </div>
  );
}
