import { useCallback, useEffect, useRef, useState } from 'react';
import { replayTrack, type Range, type Replay } from '../../services/vehicleDetail';
import { firstMovement, MAX_POINTS, seek, tick, timeOf, type Clock, type PlaySpeed } from './playback';

export type TrackState =
  { kind: 'idle' } | { kind: 'loading' } | { kind: 'failed' } | { kind: 'loaded'; replay: Replay; begin: number; end: number };

/** A range's simplified track, and the playback clock over it (one animation frame per step), starting at the first movement. */
export function usePlayback(vehicleId: number, range: Range | null) {
  const [track, setTrack] = useState<TrackState>({ kind: 'idle' });
  const [clock, setClock] = useState<Clock>({ at: 0, playing: false, speed: 8 });

  useEffect(() => {
    if (!range) return undefined;
    let live = true;
    setTrack({ kind: 'loading' });
    replayTrack(vehicleId, range, MAX_POINTS).then(
      (replay) => {
        if (!live) return;
        const begin = replay.points.length ? timeOf(replay.points[0]) : Date.parse(range.begin);
        const end = replay.points.length ? timeOf(replay.points[replay.points.length - 1]) : Date.parse(range.end);
        setTrack({ kind: 'loaded', replay, begin, end });
        setClock((c) => ({ ...c, at: firstMovement(replay.points) ?? begin, playing: false }));
      },
      () => live && setTrack({ kind: 'failed' }),
    );
    return () => {
      live = false;
    };
  }, [vehicleId, range]);

  const end = track.kind === 'loaded' ? track.end : 0;
  const begin = track.kind === 'loaded' ? track.begin : 0;
  const frame = useRef<number | null>(null);
  useEffect(() => {
    if (!clock.playing) return undefined;
    let last = performance.now();
    const step = (now: number) => {
      const elapsed = now - last;
      last = now;
      setClock((c) => tick(c, elapsed, end));
      frame.current = requestAnimationFrame(step);
    };
    frame.current = requestAnimationFrame(step);
    return () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
    };
  }, [clock.playing, end]);

  const play = useCallback(() => setClock((c) => ({ ...c, playing: true, at: c.at >= end ? begin : c.at })), [begin, end]);
  const pause = useCallback(() => setClock((c) => ({ ...c, playing: false })), []);
  const setSpeed = useCallback((speed: PlaySpeed) => setClock((c) => ({ ...c, speed })), []);
  const seekTo = useCallback((t: number) => setClock((c) => seek(c, t, begin, end)), [begin, end]);

  return { track, clock, play, pause, setSpeed, seekTo };
}
