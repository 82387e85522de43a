/** Reconnect delays: doubling from `minMs` up to `maxMs`, back to `minMs` after a success. */

export class Backoff {
  private next: number;

  constructor(
    private readonly minMs: number,
    private readonly maxMs: number,
  ) {
    this.next = minMs;
  }

  /** The delay before the next attempt. */
  take(): number {
    const d = this.next;
    this.next = Math.min(this.next * 2, this.maxMs);
    return d;
  }

  reset(): void {
    this.next = this.minMs;
  }
}
