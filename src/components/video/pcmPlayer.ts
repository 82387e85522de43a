/**
 * Plays the server's PCM audio messages (1 byte 0xA0, 1 byte version, the sample rate as a 32-bit
 * big-endian number, then 16-bit little-endian mono samples) with Web Audio, each right after the
 * one before (or a little ahead of now when the stream fell behind). Silent until switched on from
 * a click (browsers start a page's audio only after one); messages meanwhile are only counted.
 */
export class PcmPlayer {
  private ctx: AudioContext | null = null;
  private next = 0;
  private on = false;
  /** Messages received, and those played (shown for tests and diagnostics). */
  messages = 0;
  played = 0;

  push(message: ArrayBuffer): void {
    this.messages++;
    const ctx = this.ctx;
    if (!this.on || !ctx || ctx.state !== 'running') return;
    const view = new DataView(message);
    const rate = view.getUint32(2);
    const count = (message.byteLength - 6) >> 1;
    if (!count || rate < 3000) return;
    const buffer = ctx.createBuffer(1, count, rate);
    const samples = buffer.getChannelData(0);
    for (let i = 0; i < count; i++) samples[i] = view.getInt16(6 + i * 2, true) / 32768;
    const source = ctx.createBufferSource();
    source.buffer = buffer;
    source.connect(ctx.destination);
    // A stream that fell behind starts again 50 ms ahead rather than piling up late sound.
    const at = Math.max(this.next, ctx.currentTime + 0.05);
    source.start(at);
    this.next = at + buffer.duration;
    this.played++;
  }

  /** Sound on (call it from a click) or off. */
  setOn(on: boolean): void {
    this.on = on;
    if (!on) return;
    if (!this.ctx && typeof AudioContext !== 'undefined') this.ctx = new AudioContext();
    void this.ctx?.resume();
  }

  close(): void {
    void this.ctx?.close();
    this.ctx = null;
  }
}
