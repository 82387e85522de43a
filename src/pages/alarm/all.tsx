import AlarmCentre from './AlarmCentre';

/** Every category's alarms: the dashboard's 告警中 leads to its current tab (the same definition of current). */
export default function AllAlarmsPage() {
  return <AlarmCentre category={null} />;
}
