/**
 * Reassembles one channel's media packets into frames: an atomic packet is a frame, a first packet
 * starts one, middle packets extend it and the last completes it. A gap in the sequence numbers
 * (lost packets, or packets out of order, which TCP never repairs for a terminal that sent them so)
 * drops the frame in progress, and video then waits for the next I frame: a P frame without the
 * frames before it decodes to garbage.
 */

import { DataType, isVideo, Subpackage, type DataTypeCode, type MediaPacket } from './rtpPacket';

/** A frame larger than this is no frame a terminal sends: dropped. */
export const MAX_FRAME_BYTES = 2 * 1024 * 1024;

export interface MediaFrame {
  dataType: DataTypeCode;
  payloadType: number;
  /** The terminal's timestamp, ms. */
  timestamp: number;
  data: Buffer;
}

export interface AssemblerStats {
  packets: number;
  /** Packets never received (gaps in the sequence). */
  lost: number;
  /** Packets behind the sequence (repeated or reordered): dropped. */
  late: number;
  frames: number;
  /** Whole frames dropped: broken by a gap, or video waiting for an I frame. */
  droppedFrames: number;
}

export class FrameAssembler {
  private expected: number | null = null;
  private head: MediaPacket | null = null;
  private parts: Buffer[] = [];
  private bytes = 0;
  private waitForKey = true;
  readonly stats: AssemblerStats = { packets: 0, lost: 0, late: 0, frames: 0, droppedFrames: 0 };

  /** The frame this packet completes, if any. */
  push(p: MediaPacket): MediaFrame | null {
    this.stats.packets++;
    if (this.expected !== null && p.seq !== this.expected) {
      const ahead = (p.seq - this.expected) & 0xffff;
      if (ahead >= 0x8000) {
        this.stats.late++;
        return null;
      }
      this.stats.lost += ahead;
      this.broken();
      // What was lost may have been whole frames: the pictures after them need the next I frame.
      this.waitForKey = true;
    }
    this.expected = (p.seq + 1) & 0xffff;
    switch (p.subpackage) {
      case Subpackage.atomic:
        if (this.head) this.broken();
        return this.complete(p, [p.body], p.body.length);
      case Subpackage.first:
        if (this.head) this.broken();
        this.head = p;
        this.parts = [p.body];
        this.bytes = p.body.length;
        return null;
      default: {
        if (!this.head || this.head.dataType !== p.dataType) {
          // The frame's start is missing.
          if (this.head) this.broken();
          if (p.subpackage === Subpackage.last) this.dropFrame(p.dataType);
          return null;
        }
        this.parts.push(p.body);
        this.bytes += p.body.length;
        if (this.bytes > MAX_FRAME_BYTES) {
          this.broken();
          return null;
        }
        if (p.subpackage !== Subpackage.last) return null;
        const head = this.head;
        const parts = this.parts;
        const bytes = this.bytes;
        this.reset();
        return this.complete(head, parts, bytes);
      }
    }
  }

  private complete(head: MediaPacket, parts: Buffer[], bytes: number): MediaFrame | null {
    if (isVideo(head.dataType)) {
      if (this.waitForKey && head.dataType !== DataType.iFrame) {
        this.stats.droppedFrames++;
        return null;
      }
      this.waitForKey = false;
    }
    this.stats.frames++;
    return {
      dataType: head.dataType,
      payloadType: head.payloadType,
      timestamp: head.timestamp,
      data: parts.length === 1 ? parts[0] : Buffer.concat(parts, bytes),
    };
  }

  /** The frame in progress cannot be completed. */
  private broken(): void {
    if (this.head) this.dropFrame(this.head.dataType);
    this.reset();
  }

  private dropFrame(t: DataTypeCode): void {
    this.stats.droppedFrames++;
    if (isVideo(t)) this.waitForKey = true;
  }

  private reset(): void {
    this.head = null;
    this.parts = [];
    this.bytes = 0;
  }
}
