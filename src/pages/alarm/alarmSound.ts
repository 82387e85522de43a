/** A short two-tone chime through Web Audio (no sound file to fetch); silent where audio is not allowed yet. */
export function playAlarmChime(): void {
  const Ctx = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Ctx) return;
  try {
    const ctx = new Ctx();
    const gain = ctx.createGain();
    gain.gain.value = 0.08;
    gain.connect(ctx.destination);
    [880, 660].forEach((hz, i) => {
      const osc = ctx.createOscillator();
      osc.frequency.value = hz;
      osc.connect(gain);
      osc.start(ctx.currentTime + i * 0.18);
      osc.stop(ctx.currentTime + i * 0.18 + 0.15);
    });
    setTimeout(() => void ctx.close(), 1000);
  } catch {
    /* the browser refused audio before any user gesture: the toast still shows */
  }
}

const MUTE_KEY = 'fleetstar.alarmMuted';
export const isAlarmMuted = (): boolean => localStorage.getItem(MUTE_KEY) === '1';
export const setAlarmMuted = (muted: boolean): void => (muted ? localStorage.setItem(MUTE_KEY, '1') : localStorage.removeItem(MUTE_KEY));
