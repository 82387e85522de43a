import AlarmCentre from './AlarmCentre';

/** The terminal's own alarms (overspeed, idle, low voltage, the alarm word's bits…): a page of their own. */
export default function TerminalAlarmPage() {
  return <AlarmCentre category="terminal" />;
}
