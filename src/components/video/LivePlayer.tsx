import { Button } from 'antd';
import { useEffect, useState } from 'react';
import { openLiveVideo } from '../../services/video';
import { useT } from '../../session/useT';
import { PcmPlayer } from './pcmPlayer';
import StreamPlayer from './StreamPlayer';

/**
 * One camera channel, live, with its sound (off until switched on; a new channel is a new player:
 * give it a React key).
 */
export default function LivePlayer({ vehicleId, channel }: { vehicleId: number; channel: number }) {
  const t = useT();
  const [pcm] = useState(() => new PcmPlayer());
  const [sound, setSound] = useState(false);
  const [played, setPlayed] = useState(0);
  useEffect(() => () => pcm.close(), [pcm]);
  // How much sound played, for the page's tests and whoever wonders whether the camera has a microphone.
  useEffect(() => {
    if (!sound) return;
    const timer = setInterval(() => setPlayed(pcm.played), 500);
    return () => clearInterval(timer);
  }, [pcm, sound]);
  return (
    <>
      <StreamPlayer testId="live-video" open={() => openLiveVideo(vehicleId, channel, true)} onAudio={(m) => pcm.push(m)} />
      <Button
        size="small"
        onClick={() => {
          pcm.setOn(!sound);
          setSound(!sound);
        }}
        data-testid="live-video-sound"
        data-on={sound}
        data-played={played}
      >
        {sound ? t('console.video.soundOff') : t('console.video.soundOn')}
      </Button>
    </>
  );
}
