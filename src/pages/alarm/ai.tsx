import AlarmCentre from './AlarmCentre';

export default function AiAlarmPage() {
  return <AlarmCentre category="ai" withAll />;
}
