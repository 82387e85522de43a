import type { FastifyInstance } from 'fastify';
import { NONE } from '../platform/auth/caller';
import { bool, int, str } from '../platform/crud/routeSpec';
import { typed } from '../platform/http/typed';
import { TextDecoder808 } from './jt808/decodeText';

const MAX_FRAMES = 200;

/** One line's result: the decoded message (toJson.ts), or why the line is not one. */
const decoded = {
  type: 'object',
  additionalProperties: false,
  properties: {
    msgId: { ...str, description: 'the message id as 0x hex' },
    version: int,
    phone: str,
    serial: int,
    packet: { type: 'object', additionalProperties: false, properties: { count: int, index: int } },
    protocolVersion: int,
    encryption: int,
    opaque: { ...str, description: 'a body kept as bytes: unknown, fragment or encrypted' },
    reassembledFrom: { ...int, description: 'the packets a fragmented message was put together from' },
    body: { description: 'the decoded body, as JSON (bytes as hex)' },
    error: { ...str, description: 'why the line is not a frame' },
    code: str,
  },
} as const;

/** The decoder behind the console's JT/T 808 page: frames pasted by an operator, decoded as the CLI does. */
export function registerDecodeRoute(fastify: FastifyInstance): void {
  const app = typed(fastify);
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
      response: {
        200: {
          type: 'object',
          additionalProperties: false,
          properties: { results: { type: 'array', items: decoded }, truncated: { ...bool, description: 'more lines than were decoded' } },
        },
      },
    },
    handler: async (req) => {
      const { body } = req;
      const decoder = new TextDecoder808({ tzOffsetMinutes: body.tzOffsetMinutes, verifyChecksum: body.verifyChecksum });
      const lines = body.frames.split(/\r?\n/).filter((l) => l.trim() !== '');
      return { results: lines.slice(0, MAX_FRAMES).map((l) => decoder.decode(l)), truncated: lines.length > MAX_FRAMES };
    },
  });
}
