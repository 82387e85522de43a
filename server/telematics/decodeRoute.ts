import type { FastifyInstance } from 'fastify';
import { NONE } from '../platform/auth/caller';
import { TextDecoder808 } from './jt808/decodeText';

const MAX_FRAMES = 200;

/** The decoder behind the console's JT/T 808 page: frames pasted by an operator, decoded as the CLI does. */
export function registerDecodeRoute(app: FastifyInstance): void {
  app.post('/api/vehicle/tools/jt808/decode', {
    config: { permission: NONE, labels: 'telematics.decodeFields' },
    schema: {
      tags: ['telematics'],
      summary: 'Decode JT/T 808 frames (hex, one per line, with their 7e flags)',
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['frames'],
        properties: {
          frames: { type: 'string', minLength: 1, maxLength: 200_000 },
          /** Device clock offset, minutes east of UTC (default GMT+8). */
          tzOffsetMinutes: { type: 'integer', minimum: -840, maximum: 840 },
          verifyChecksum: { type: 'boolean' },
        },
      },
    },
    handler: async (req) => {
      const body = req.body as { frames: string; tzOffsetMinutes?: number; verifyChecksum?: boolean };
      const decoder = new TextDecoder808({ tzOffsetMinutes: body.tzOffsetMinutes, verifyChecksum: body.verifyChecksum });
      const lines = body.frames.split(/\r?\n/).filter((l) => l.trim() !== '');
      return { results: lines.slice(0, MAX_FRAMES).map((l) => decoder.decode(l)), truncated: lines.length > MAX_FRAMES };
    },
  });
}
