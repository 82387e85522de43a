import AlarmCentre from './AlarmCentre';

/** Active safety (苏标 ADAS, DSM, tyres, blind spot): the driver assistance and driver monitor's alarms. */
export default function SafetyAlarmPage() {
  return <AlarmCentre category="safety" />;
}
