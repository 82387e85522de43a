import { openLiveVideo } from '../../services/video';
import StreamPlayer from './StreamPlayer';

/** One camera channel, live (a new channel is a new player: give it a React key). */
export default function LivePlayer({ vehicleId, channel }: { vehicleId: number; channel: number }) {
  return <StreamPlayer testId="live-video" open={() => openLiveVideo(vehicleId, channel)} />;
}
