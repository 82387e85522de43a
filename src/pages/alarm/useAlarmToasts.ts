import { useEffect, useRef, useState } from 'react';
import { openLive, type LiveRaisedAlarm } from '../../services/live';
import { getToken } from '../../session/session';
import { isAlarmMuted, playAlarmChime, setAlarmMuted } from './alarmSound';

/**
 * New alarms from the live stream while an alarm page is open: each is handed to `onAlarm` (the
 * page's toast) with a chime unless muted; the mute choice is kept across visits.
 */
export function useAlarmToasts(onAlarm: (a: LiveRaisedAlarm) => void): { muted: boolean; setMuted(m: boolean): void } {
  const [muted, setMutedState] = useState(isAlarmMuted);
  const mutedRef = useRef(muted);
  const handler = useRef(onAlarm);
  handler.current = onAlarm;
  useEffect(() => {
    const conn = openLive(getToken, {
      onMessage: (m) => {
        if (m.type !== 'alarm') return;
        for (const a of m.items) handler.current(a);
        if (m.items.length && !mutedRef.current) playAlarmChime();
      },
    });
    return () => conn.close();
  }, []);
  return {
    muted,
    setMuted(m: boolean) {
      mutedRef.current = m;
      setAlarmMuted(m);
      setMutedState(m);
    },
  };
}
