import { Button } from 'antd';
import { useEffect, useState } from 'react';
import { useT } from '../../session/useT';
import { PcmPlayer } from './pcmPlayer';

/** A player of a stream's sound and the button that switches it on and off (off at first). */
export function usePcmPlayer(): PcmPlayer {
  const [pcm] = useState(() => new PcmPlayer());
  useEffect(() => () => pcm.close(), [pcm]);
  return pcm;
}

export default function SoundButton({ pcm, testId }: { pcm: PcmPlayer; testId: string }) {
  const t = useT();
  const [on, setOn] = useState(false);
  const [played, setPlayed] = useState(0);
  // How much sound played, for the page's tests and whoever wonders whether the camera has a microphone.
  useEffect(() => {
    if (!on) return;
    const timer = setInterval(() => setPlayed(pcm.played), 500);
    return () => clearInterval(timer);
  }, [pcm, on]);
  return (
    <Button
      size="small"
      onClick={() => {
        pcm.setOn(!on);
        setOn(!on);
      }}
      data-testid={testId}
      data-on={on}
      data-played={played}
    >
      {on ? t('console.video.soundOff') : t('console.video.soundOn')}
    </Button>
  );
}
