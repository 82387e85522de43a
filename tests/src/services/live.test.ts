import { openLive } from '../../../src/services/live';
import { onSessionEnded } from '../../../src/services/http/sessionEnd';

/** The browser's WebSocket as the live client uses it: created, then opened or closed by the server. */
class ScriptedSocket {
  static made: ScriptedSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  constructor(
    readonly url: string,
    readonly protocols: string[],
  ) {
    ScriptedSocket.made.push(this);
  }
  close() {
    this.onclose?.({ code: 1005 });
  }
}

describe('the live client', () => {
  let ended = 0;
  beforeEach(() => {
    jest.useFakeTimers();
    ScriptedSocket.made = [];
    ended = 0;
    onSessionEnded(() => ended++);
    // jsdom has no server to reach: the socket is scripted, the client's logic is the real one.
    (globalThis as { WebSocket: unknown }).WebSocket = ScriptedSocket;
  });
  afterEach(() => jest.useRealTimers());

  it('sends the token as the second subprotocol, never in the address', () => {
    openLive(() => 'tok-1', { onMessage: () => undefined });
    expect(ScriptedSocket.made[0].protocols).toEqual(['fleetstar', 'tok-1']);
    expect(ScriptedSocket.made[0].url).not.toContain('tok-1');
  });

  it('stops when the session ended (4401) and asks to sign in again, once', () => {
    const states: boolean[] = [];
    openLive(() => 'tok', { onMessage: () => undefined, onState: (c) => states.push(c) });
    ScriptedSocket.made[0].onopen?.();
    ScriptedSocket.made[0].onclose?.({ code: 4401 });
    jest.advanceTimersByTime(60_000);
    expect(ScriptedSocket.made).toHaveLength(1);
    expect(ended).toBe(1);
    expect(states).toEqual([true, false]);
  });

  it('reconnects at once with the new scope (4409), and after a drop with a growing delay', () => {
    const again: boolean[] = [];
    let token = 'old';
    openLive(() => token, { onMessage: () => undefined, onState: (c, a) => c && again.push(a) });
    ScriptedSocket.made[0].onopen?.();
    token = 'new';
    ScriptedSocket.made[0].onclose?.({ code: 4409 });
    jest.advanceTimersByTime(0);
    expect(ScriptedSocket.made).toHaveLength(2);
    expect(ScriptedSocket.made[1].protocols[1]).toBe('new');
    ScriptedSocket.made[1].onopen?.();
    ScriptedSocket.made[1].onclose?.({ code: 1006 });
    jest.advanceTimersByTime(999);
    expect(ScriptedSocket.made).toHaveLength(2);
    jest.advanceTimersByTime(1);
    expect(ScriptedSocket.made).toHaveLength(3);
    expect(again).toEqual([false, true]);
    expect(ended).toBe(0);
  });

  it('does not reconnect once closed by the page', () => {
    const conn = openLive(() => 'tok', { onMessage: () => undefined });
    conn.close();
    jest.advanceTimersByTime(60_000);
    expect(ScriptedSocket.made).toHaveLength(1);
  });
});
