import AlarmCentre from './AlarmCentre';

export default function FenceAlarmPage() {
  return <AlarmCentre category="fence" />;
}
