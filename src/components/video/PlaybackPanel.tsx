import { Alert, Button, DatePicker, Radio, Space, Spin, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import { failureOf } from '../../services/http/failureOf';
import { controlPlayback, openPlayback, PLAYBACK_SPEEDS, queryRecords, type PlaybackSpeed, type VideoRecord } from '../../services/video';
import { useT } from '../../session/useT';
import { parseTime } from '../../utils/formatTime';
import RecordTimeline from './RecordTimeline';
import SoundButton, { usePcmPlayer } from './SoundButton';
import StreamPlayer from './StreamPlayer';

/** Where the recording is, from the video element's time: FLV time runs at the recording's pace divided by the speed. */
interface Anchor {
  /** Recording time, epoch ms, at the element's time `ct` (s). */
  at: number;
  ct: number;
  speed: PlaybackSpeed;
}

/** What the player plays: a recording from `begin`, a new player each time (`n`). */
interface Session {
  n: number;
  begin: number;
}

/**
 * A channel's recordings on the terminal: a day's list (0x9205) on a timeline; a click or a drag
 * plays from that time (0x9201), with pause, resume and speed (0x9202). `at` (an alarm's time)
 * picks the day and plays from a little before it at once.
 */
export default function PlaybackPanel({ vehicleId, channel, at }: { vehicleId: number; channel: number; at?: string | null }) {
  const t = useT();
  const [day, setDay] = useState<Dayjs>(() => dayjs(at ?? undefined).startOf('day'));
  const [records, setRecords] = useState<VideoRecord[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [session, setSession] = useState<Session | null>(() => (at ? { n: 1, begin: Date.parse(at) - 10_000 } : null));
  const [paused, setPaused] = useState(false);
  const [speed, setSpeed] = useState<PlaybackSpeed>(1);
  const [position, setPosition] = useState<number | null>(null);
  const playback = useRef<string | null>(null);
  const element = useRef<HTMLVideoElement | null>(null);
  const anchor = useRef<Anchor | null>(null);
  const pcm = usePcmPlayer();
  const from = day.valueOf();
  const to = day.add(1, 'day').valueOf();

  useEffect(() => {
    let stopped = false;
    setRecords(null);
    setError(null);
    const end = Math.min(to, Date.now());
    queryRecords(vehicleId, channel, new Date(from).toISOString(), new Date(Math.max(end, from + 1000)).toISOString()).then(
      (r) => !stopped && setRecords(r.records),
      (e: unknown) => !stopped && setError(failureOf(e).message || t('console.video.failed')),
    );
    return () => {
      stopped = true;
    };
    // The words may change with the language; the query must not run again for that.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [vehicleId, channel, from, to]);

  // The cursor follows the picture.
  useEffect(() => {
    const timer = setInterval(() => {
      const el = element.current;
      const a = anchor.current;
      if (el && a) setPosition(Math.round(a.at + (el.currentTime - a.ct) * 1000 * a.speed));
    }, 250);
    return () => clearInterval(timer);
  }, []);

  const here = (): number | null => {
    const el = element.current;
    const a = anchor.current;
    return el && a ? a.at + (el.currentTime - a.ct) * 1000 * a.speed : null;
  };

  const start = (begin: number) => {
    playback.current = null;
    element.current = null;
    anchor.current = null;
    setPaused(false);
    setSpeed(1);
    setPosition(begin);
    setSession((s) => ({ n: (s?.n ?? 0) + 1, begin }));
  };

  const pick = (time: number) => {
    const id = playback.current;
    const el = element.current;
    if (!id || !el) return start(time);
    // A playing recording is sought (0x9202 seek), not opened again.
    anchor.current = { at: time, ct: el.currentTime, speed };
    setPosition(time);
    setPaused(false);
    void controlPlayback(id, { command: 'seek', at: new Date(time).toISOString() });
  };

  const changeSpeed = (s: PlaybackSpeed) => {
    const id = playback.current;
    const el = element.current;
    const now = here();
    if (el && now !== null) anchor.current = { at: now, ct: el.currentTime, speed: s };
    setSpeed(s);
    setPaused(false);
    if (id) void controlPlayback(id, { command: 'speed', speed: s });
  };

  const togglePause = () => {
    const id = playback.current;
    if (!id) return;
    setPaused(!paused);
    void controlPlayback(id, { command: paused ? 'resume' : 'pause' });
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space wrap>
        <DatePicker
          value={day}
          allowClear={false}
          disabledDate={(d) => d.isAfter(dayjs(), 'day')}
          onChange={(d) => d && setDay(d.startOf('day'))}
          data-testid="playback-day"
        />
        {records === null && !error && <Spin size="small" />}
        {records !== null && (
          <Tag data-testid="playback-records" data-count={records.length}>
            {t('console.video.recordCount', { count: records.length })}
          </Tag>
        )}
      </Space>
      {error && <Alert type="warning" showIcon message={error} data-testid="playback-error" />}
      {records !== null && <RecordTimeline from={from} to={to} records={records} position={position} onPick={pick} />}
      {records !== null && records.length === 0 && <Alert type="info" message={t('console.video.noRecords')} />}
      {session && (
        <>
          <StreamPlayer
            key={session.n}
            testId="playback-video"
            open={async () => {
              const ticket = await openPlayback(vehicleId, channel, new Date(session.begin).toISOString(), true);
              playback.current = ticket.playbackId;
              return ticket;
            }}
            onPlaying={(el) => {
              element.current = el;
              anchor.current = { at: session.begin, ct: el.currentTime, speed: 1 };
            }}
            onAudio={(m) => pcm.push(m)}
          />
          <Space wrap>
            <SoundButton pcm={pcm} testId="playback-video-sound" />
            <Button size="small" onClick={togglePause} data-testid="playback-pause" data-paused={paused}>
              {paused ? t('console.video.resume') : t('console.video.pause')}
            </Button>
            <Radio.Group
              size="small"
              optionType="button"
              value={speed}
              onChange={(e) => changeSpeed(e.target.value as PlaybackSpeed)}
              data-testid="playback-speed"
              options={PLAYBACK_SPEEDS.map((s) => ({ value: s, label: `×${s}` }))}
            />
            {position !== null && <Tag data-testid="playback-position">{parseTime(position)}</Tag>}
          </Space>
        </>
      )}
    </Space>
  );
}
