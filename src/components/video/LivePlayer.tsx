import { openLiveVideo } from '../../services/video';
import SoundButton, { usePcmPlayer } from './SoundButton';
import StreamPlayer from './StreamPlayer';

/** One camera channel, live, with its sound (a new channel is a new player: give it a React key). */
export default function LivePlayer({ vehicleId, channel }: { vehicleId: number; channel: number }) {
  const pcm = usePcmPlayer();
  return (
    <>
      <StreamPlayer testId="live-video" live open={() => openLiveVideo(vehicleId, channel, true)} onAudio={(m) => pcm.push(m)} />
      <SoundButton pcm={pcm} testId="live-video-sound" />
    </>
  );
}
