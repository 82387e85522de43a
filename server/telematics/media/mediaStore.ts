/**
 * Media files, content-addressed: DATA_DIR/media/<first two hex digits>/<sha256>, written once
 * (a temporary file renamed into place, so a reader never sees half a file), with a `media` row per
 * upload. The row is written after the file, so a row always has its file.
 */

import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import type { MediaStored } from '../../platform/telemetry';
import type { MediaDataBody } from '../jt808/codec';

const SHA256 = /^[0-9a-f]{64}$/;

export interface MediaOwner {
  terminalId: number;
  vehicleId: number | null;
}

export class MediaStore {
  constructor(
    private readonly db: Kysely<DB>,
    readonly dir: string,
    /** Told of each upload kept for the first time (a repeat of the same file is not). */
    private readonly onStored?: (m: MediaStored) => void,
  ) {}

  /** The file of a content hash; refuses anything that is not one (no path can be smuggled in). */
  fileOf(sha256: string): string {
    if (!SHA256.test(sha256)) throw new Error(`not a SHA-256: ${JSON.stringify(sha256)}`);
    return path.join(this.dir, sha256.slice(0, 2), sha256);
  }

  /** Keeps the file (once per content) and the upload's row (once per terminal, media id and content). */
  async save(owner: MediaOwner, media: MediaDataBody): Promise<{ sha256: string }> {
    const sha256 = createHash('sha256').update(media.data).digest('hex');
    await this.writeOnce(sha256, media.data);
    const location = media.location;
    const row = await this.db
      .insertInto('media')
      .values({
        terminal_id: owner.terminalId,
        vehicle_id: owner.vehicleId,
        media_id: media.mediaId,
        type: media.type,
        format: media.format,
        event: media.event,
        channel: media.channel,
        latitude: location ? location.latitude : null,
        longitude: location ? location.longitude : null,
        taken_at: location?.time ?? null,
        sha256,
        bytes: media.data.length,
      })
      .onConflict((oc) => oc.columns(['terminal_id', 'media_id', 'sha256']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (row) this.onStored?.({ mediaId: Number(row.id), terminalId: owner.terminalId, vehicleId: owner.vehicleId });
    return { sha256 };
  }

  /**
   * Keeps a whole active safety attachment (the file once per content) and its row tying it to the
   * alarm's key; a file sent again for the same request and name adds nothing.
   */
  async saveAttachment(
    owner: MediaOwner & { requestId: string; alarmKey: string },
    file: { name: string; type: number },
    data: Buffer,
  ): Promise<{ sha256: string }> {
    const sha256 = createHash('sha256').update(data).digest('hex');
    await this.writeOnce(sha256, data);
    await this.db
      .insertInto('alarm_attachment')
      .values({
        request_id: owner.requestId,
        terminal_id: owner.terminalId,
        vehicle_id: owner.vehicleId,
        alarm_key: owner.alarmKey,
        file_name: file.name,
        file_type: file.type,
        sha256,
        bytes: data.length,
      })
      .onConflict((oc) => oc.columns(['request_id', 'file_name']).doNothing())
      .execute();
    return { sha256 };
  }

  private async writeOnce(sha256: string, data: Buffer): Promise<void> {
    const file = this.fileOf(sha256);
    const exists = await stat(file).then(
      (s) => s.size === data.length,
      () => false,
    );
    if (exists) return;
    await mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(tmp, data, { flag: 'wx' });
      await rename(tmp, file);
    } catch (e) {
      await unlink(tmp).catch(() => undefined);
      throw e;
    }
  }
}
