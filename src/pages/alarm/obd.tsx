import AlarmCentre from './AlarmCentre';

export default function ObdAlarmPage() {
  return <AlarmCentre category="obd" />;
}
