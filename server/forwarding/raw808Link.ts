/**
 * Raw JT/T 808 forwarding to a partner platform: each terminal's frames, as the terminal sent
 * them, over a TCP connection of its own to the partner (so the partner sees one session per
 * terminal, as from the terminal itself). A connection opens at the terminal's first frame,
 * reconnects with backoff while frames wait, and closes after `idleMs` without frames. Frames
 * wait in a bounded backlog per terminal while its connection is down (the oldest dropped and
 * counted). What the partner answers is read and discarded (counted): commands do not go back to
 * the terminal.
 */

import net from 'node:net';
import { Backlog } from './backlog';
import { Backoff } from './reconnect';
import { newCounters, type LinkCounters, type LinkSnapshot } from './jt809Link';

export interface RawLinkOptions {
  host: string;
  port: number;
  /** Frames kept per terminal while its connection is down. */
  backlogLimit?: number;
  backoffMinMs?: number;
  backoffMaxMs?: number;
  /** A terminal's connection closes after this long without frames (default 5 min). */
  idleMs?: number;
  /** Resolves the partner's host name, refusing what may not be reached (the outbound address guard). */
  lookup?: net.LookupFunction;
  log?: { warn(obj: object, msg: string): void };
}

const STALLED_BYTES = 256 * 1024;

class Pipe {
  socket: net.Socket | null = null;
  up = false;
  readonly backlog: Backlog<Buffer>;
  readonly backoff: Backoff;
  timer: NodeJS.Timeout | null = null;
  idle: NodeJS.Timeout | null = null;

  constructor(o: RawLinkOptions) {
    this.backlog = new Backlog(o.backlogLimit ?? 10_000);
    this.backoff = new Backoff(o.backoffMinMs ?? 1000, o.backoffMaxMs ?? 60_000);
  }
}

export class Raw808Link {
  private readonly pipes = new Map<string, Pipe>();
  private stopped = false;
  lastError: string | null = null;
  readonly counters: LinkCounters = newCounters();
  /** Bytes the partner sent back, read and discarded. */
  repliedBytes = 0;

  constructor(private readonly o: RawLinkOptions) {}

  async start(): Promise<void> {}

  /** Forwards one wire frame of a terminal (its phone or terminal number keys the connection). */
  send(terminal: string, frame: Buffer): void {
    if (this.stopped) return;
    let p = this.pipes.get(terminal);
    if (!p) {
      p = new Pipe(this.o);
      this.pipes.set(terminal, p);
    }
    this.touch(terminal, p);
    if (p.up && p.socket && p.socket.writableLength < STALLED_BYTES && p.backlog.length === 0) {
      p.socket.write(frame);
      this.counters.sent.frame++;
      return;
    }
    p.backlog.push(frame);
    if (!p.socket && !p.timer) this.connect(terminal, p);
  }

  snapshot(): LinkSnapshot {
    let backlog = 0;
    let dropped = 0;
    let up = 0;
    for (const p of this.pipes.values()) {
      backlog += p.backlog.length;
      dropped += p.backlog.dropped;
      if (p.up) up++;
    }
    const waiting = [...this.pipes.values()].some((p) => !p.up && p.backlog.length > 0);
    return {
      state: this.stopped ? 'stopped' : waiting ? 'down' : 'up',
      subLink: 'none',
      backlog,
      counters: { ...this.counters, sent: { ...this.counters.sent }, dropped: this.counters.dropped + dropped },
      upSince: null,
      lastError: this.lastError,
      connections: up,
    };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const p of this.pipes.values()) {
      if (p.timer) clearTimeout(p.timer);
      if (p.idle) clearTimeout(p.idle);
      p.socket?.destroy();
    }
    this.pipes.clear();
  }

  private touch(terminal: string, p: Pipe): void {
    if (p.idle) clearTimeout(p.idle);
    p.idle = setTimeout(() => {
      if (p.backlog.length) return this.touch(terminal, p);
      this.pipes.delete(terminal);
      this.counters.dropped += p.backlog.dropped;
      if (p.timer) clearTimeout(p.timer);
      p.socket?.destroy();
    }, this.o.idleMs ?? 300_000);
    p.idle.unref();
  }

  private connect(terminal: string, p: Pipe): void {
    p.timer = null;
    if (this.stopped || this.pipes.get(terminal) !== p) return;
    const s = net.createConnection({ host: this.o.host, port: this.o.port, lookup: this.o.lookup });
    p.socket = s;
    s.setNoDelay(true);
    s.on('connect', () => {
      this.counters.connects++;
      p.up = true;
      p.backoff.reset();
      for (const f of p.backlog.drain()) {
        s.write(f);
        this.counters.sent.frame++;
      }
    });
    s.on('data', (chunk) => (this.repliedBytes += chunk.length));
    s.on('error', (e) => {
      this.lastError = e.message;
      this.o.log?.warn({ err: e.message, host: this.o.host, port: this.o.port, terminal }, 'jt808 forward link');
    });
    s.on('close', () => {
      if (p.socket !== s) return;
      p.socket = null;
      p.up = false;
      if (this.stopped || this.pipes.get(terminal) !== p) return;
      // Reconnect at once when frames wait; otherwise at the next frame.
      if (p.backlog.length) p.timer = setTimeout(() => this.connect(terminal, p), p.backoff.take());
    });
  }
}
