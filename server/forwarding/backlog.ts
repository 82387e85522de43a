/** A bounded first-in-first-out queue in memory (a raw JT/T 808 link's, per terminal): past its limit the oldest item is dropped and counted. */

export class Backlog<T> {
  private items: T[] = [];
  private head = 0;
  dropped = 0;

  constructor(readonly limit: number) {}

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
    if (this.length > this.limit) {
      this.head++;
      this.dropped++;
    }
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }

  /** Removes and answers everything queued, oldest first. */
  drain(): T[] {
    const out = this.items.slice(this.head);
    this.items = [];
    this.head = 0;
    return out;
  }
}
