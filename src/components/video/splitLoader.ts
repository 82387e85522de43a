import type Mpegts from 'mpegts.js';

/** The first byte of the server's PCM messages (server/telematics/video/audio.ts); FLV's never start so. */
export const AUDIO_MESSAGE = 0xa0;
/** The first byte of the server's clock messages (server/telematics/video/clock.ts). */
export const CLOCK_MESSAGE = 0xa1;

/** What the server sends beside the FLV. */
export interface SideMessages {
  onAudio?: (message: ArrayBuffer) => void;
  onClock?: (message: ArrayBuffer) => void;
}

type MpegtsModule = typeof Mpegts;

/**
 * mpegts.js's WebSocket loader, but a message of PCM audio goes to `onAudio` (mpegts.js plays no
 * G.711: the server decodes it, the page plays it with Web Audio) and a clock message to `onClock`,
 * rather than to the FLV demuxer.
 */
export function splitLoader(mpegts: MpegtsModule, side: SideMessages): Mpegts.CustomLoaderConstructor {
  const { LoaderStatus, LoaderErrors } = mpegts;
  return class SplitLoader extends mpegts.BaseLoader {
    private ws: WebSocket | null = null;
    private aborted = false;
    private received = 0;

    constructor() {
      super('fleetstar-video-loader');
      this._needStash = true;
    }

    open(source: Mpegts.MediaSegment): void {
      const ws = new WebSocket(source.url);
      this.ws = ws;
      ws.binaryType = 'arraybuffer';
      this._status = LoaderStatus.kConnecting;
      ws.onopen = () => {
        this._status = LoaderStatus.kBuffering;
      };
      ws.onmessage = (e: MessageEvent<ArrayBuffer>) => {
        const data = e.data;
        const first = data.byteLength ? new Uint8Array(data, 0, 1)[0] : -1;
        if (first === AUDIO_MESSAGE) return side.onAudio?.(data);
        if (first === CLOCK_MESSAGE) return side.onClock?.(data);
        const start = this.received;
        this.received += data.byteLength;
        this.onDataArrival(data, start, this.received);
      };
      ws.onclose = () => {
        if (this.aborted) return;
        this._status = LoaderStatus.kComplete;
        this.onComplete(0, this.received - 1);
      };
      ws.onerror = () => {
        this._status = LoaderStatus.kError;
        // mpegts.js's typings name the whole LoaderErrors table as the type of one error; it takes a code of it.
        this.onError(LoaderErrors.EXCEPTION as unknown as Mpegts.LoaderErrors, { code: -1, msg: 'video WebSocket error' });
      };
    }

    abort(): void {
      const ws = this.ws;
      if (ws && (ws.readyState === WebSocket.CONNECTING || ws.readyState === WebSocket.OPEN)) {
        this.aborted = true;
        ws.close();
      }
      this.ws = null;
      this._status = LoaderStatus.kComplete;
    }

    destroy(): void {
      if (this.ws) this.abort();
      super.destroy();
    }
  };
}
