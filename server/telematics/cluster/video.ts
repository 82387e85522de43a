/**
 * Video across processes, on NATS: a terminal streams to the media server of the gateway worker
 * holding its 808 session (that worker sends the 0x9101/0x9201 naming its own media port), so each
 * channel has one upstream and one set of live channels in the cluster however many workers its
 * viewers' WebSockets reached. A viewer's process asks the holder on `<prefix>.video.<terminalId>`
 * (the holder answers for exactly its terminals, as downlink.ts does; no responders: offline), and
 * the holder sends the viewer's FLV and PCM messages on `<prefix>.view.<viewer>.data`, and its end
 * on `<prefix>.view.<viewer>.end`. A viewer leaving is published on `<prefix>.video.leave`; a
 * playback's controls go to `<prefix>.video.playback.<id>`, which its holder answers while it is
 * open. The viewers' processes say every few seconds which viewers they still have
 * (`<prefix>.video.alive`): a holder drops the remote viewers of a process that went away.
 *
 * In-process, the same routes use `localVideo` (video/source.ts): one interface, two carriers, as
 * for downlink commands.
 */

import crypto from 'node:crypto';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import type { Jt808Gateway } from '../gateway/server';
import type { ChannelKey, Viewer } from '../video/liveChannels';
import type { PlaybackCommand, PlaybackRange } from '../video/playbacks';
import type { VideoSource } from '../video/source';
import { serveHeldTerminals } from './heldTerminals';
import { DOWNLINK_PREFIX } from './downlink';

type Request =
  | { op: 'watch'; viewer: string; channel: number; audio: boolean; clock: boolean }
  | { op: 'playback'; viewer: string; id: string; channel: number; range: PlaybackRange; memberId: number; audio: boolean };
interface Control {
  memberId: number;
  command: PlaybackCommand;
}

const REQUEST_TIMEOUT_MS = 3000;
/** How often a viewers' process says which of its viewers are still there, ms. */
export const ALIVE_EVERY_MS = 5000;
/** A remote viewer not named for this long is dropped (its process is gone), ms. */
const ALIVE_LAPSE_MS = 3 * ALIVE_EVERY_MS;

interface Remote {
  leave: () => void;
  seen: number;
}

/**
 * Holder side: serves the video of the terminals whose session `gateway` holds from `local` (this
 * process's live channels and playbacks). Returns the function that stops serving.
 */
export function serveVideo(
  nc: NatsConnection,
  gateway: Jt808Gateway,
  local: VideoSource,
  opts: { prefix?: string; aliveEveryMs?: number } = {},
): () => void {
  const prefix = opts.prefix ?? DOWNLINK_PREFIX;
  const lapse = opts.aliveEveryMs ? 3 * opts.aliveEveryMs : ALIVE_LAPSE_MS;
  const remotes = new Map<string, Remote>();
  const controls = new Map<string, Subscription>();

  /** A viewer in another process: what it is sent goes out on its subjects. */
  const remoteViewer = (id: string, audio: boolean, clock: boolean): Viewer => ({
    audio,
    clock,
    send: (chunk) => {
      try {
        nc.publish(`${prefix}.view.${id}.data`, chunk);
      } catch {
        // A message beyond the server's limit (or a closed connection): that viewer cannot be fed.
        drop(id, 'the stream could not be relayed');
      }
    },
    end: (reason) => {
      remotes.delete(id);
      controls.get(id)?.unsubscribe();
      controls.delete(id);
      nc.publish(`${prefix}.view.${id}.end`, reason);
    },
  });
  const drop = (id: string, reason: string | null): void => {
    const r = remotes.get(id);
    if (!r) return;
    remotes.delete(id);
    r.leave();
    if (reason !== null) nc.publish(`${prefix}.view.${id}.end`, reason);
  };

  const open = (terminalId: number, req: Request): void => {
    const viewer = remoteViewer(req.viewer, req.audio, req.op === 'watch' && req.clock);
    const key: ChannelKey = { terminalId, channel: req.channel };
    const remote: Remote = { leave: () => undefined, seen: Date.now() };
    remotes.set(req.viewer, remote);
    if (req.op === 'watch') {
      remote.leave = local.watch(key, viewer);
      return;
    }
    const control = nc.subscribe(`${prefix}.video.playback.${req.id}`, {
      callback: (err, msg) => {
        if (err) return;
        let c: Control;
        try {
          c = msg.json<Control>();
        } catch {
          return; // malformed: the sender times out
        }
        void local.control(req.id, c.memberId, c.command).then((ok) => msg.respond(JSON.stringify({ ok })));
      },
    });
    controls.set(req.viewer, control);
    const leave = local.playback(req.id, key, req.range, req.memberId, viewer);
    remote.leave = () => {
      control.unsubscribe();
      controls.delete(req.viewer);
      leave();
    };
  };

  const stopServing = serveHeldTerminals<Request>(
    nc,
    gateway,
    (terminalId) => `${prefix}.video.${terminalId}`,
    (terminalId, req, msg) => {
      // Answered first: the viewer's process then knows a holder took it, whatever follows.
      msg.respond(JSON.stringify({ ok: true }));
      open(terminalId, req);
    },
  );
  const leaves = nc.subscribe(`${prefix}.video.leave`, {
    callback: (err, msg) => {
      if (!err) drop(msg.string(), null);
    },
  });
  const alive = nc.subscribe(`${prefix}.video.alive`, {
    callback: (err, msg) => {
      if (err) return;
      let ids: string[];
      try {
        ids = msg.json<string[]>();
      } catch {
        return;
      }
      const now = Date.now();
      for (const id of ids) {
        const r = remotes.get(id);
        if (r) r.seen = now;
      }
    },
  });
  const sweep = setInterval(() => {
    const before = Date.now() - lapse;
    for (const [id, r] of remotes) if (r.seen < before) drop(id, null);
  }, opts.aliveEveryMs ?? ALIVE_EVERY_MS);
  sweep.unref();
  return () => {
    stopServing();
    clearInterval(sweep);
    leaves.unsubscribe();
    alive.unsubscribe();
    for (const id of [...remotes.keys()]) drop(id, 'server stopping');
  };
}

/** Viewer side: the VideoSource of the routes when the media servers run in the gateway workers. */
export class NatsVideo implements VideoSource {
  /** This process's viewers, by their id on the subjects. */
  private readonly viewers = new Set<string>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly nc: NatsConnection,
    private readonly prefix = DOWNLINK_PREFIX,
    aliveEveryMs = ALIVE_EVERY_MS,
  ) {
    this.timer = setInterval(() => {
      if (this.viewers.size) this.nc.publish(`${this.prefix}.video.alive`, JSON.stringify([...this.viewers]));
    }, aliveEveryMs);
    this.timer.unref();
  }

  watch(key: ChannelKey, viewer: Viewer): () => void {
    return this.open(key.terminalId, viewer, (id) => ({
      op: 'watch',
      viewer: id,
      channel: key.channel,
      audio: viewer.audio === true,
      clock: viewer.clock === true,
    }));
  }

  playback(id: string, key: ChannelKey, range: PlaybackRange, memberId: number, viewer: Viewer): () => void {
    return this.open(key.terminalId, viewer, (v) => ({
      op: 'playback',
      viewer: v,
      id,
      channel: key.channel,
      range,
      memberId,
      audio: viewer.audio === true,
    }));
  }

  async control(id: string, memberId: number, command: PlaybackCommand): Promise<boolean> {
    try {
      const m = await this.nc.request(`${this.prefix}.video.playback.${id}`, JSON.stringify({ memberId, command } satisfies Control), {
        timeout: REQUEST_TIMEOUT_MS,
      });
      return m.json<{ ok: boolean }>().ok === true;
    } catch {
      return false; // no responders: no such playback open anywhere
    }
  }

  close(): void {
    clearInterval(this.timer);
  }

  private open(terminalId: number, viewer: Viewer, request: (viewerId: string) => Request): () => void {
    const id = crypto.randomUUID();
    let open = true;
    const finish = (reason: string | null): void => {
      if (!open) return;
      open = false;
      this.viewers.delete(id);
      sub.unsubscribe();
      if (reason !== null) viewer.end(reason);
    };
    // Subscribed before the request goes out, so nothing the holder sends is missed.
    const sub = this.nc.subscribe(`${this.prefix}.view.${id}.>`, {
      callback: (err, msg) => {
        if (err || !open) return;
        if (msg.subject.endsWith('.data')) viewer.send(Buffer.from(msg.data.buffer, msg.data.byteOffset, msg.data.byteLength));
        else finish(msg.string());
      },
    });
    this.viewers.add(id);
    this.nc.request(`${this.prefix}.video.${terminalId}`, JSON.stringify(request(id)), { timeout: REQUEST_TIMEOUT_MS }).then(
      () => undefined,
      () => finish('the terminal is offline'),
    );
    return () => {
      if (!open) return;
      finish(null);
      this.nc.publish(`${this.prefix}.video.leave`, id);
    };
  }
}
