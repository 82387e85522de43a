import type { FromSchema } from 'json-schema-to-ts';

/**
 * The answers of location sharing and the map settings (DESIGN.md Security), shared by the server's
 * routes and the console's services.
 */

/** `GET /api/map/config`: the tiles a map may load (none when MAP_TILE_URL=off). */
export const mapConfigSchema = {
  type: 'object',
  required: ['tileUrl', 'coordSystem', 'attribution'],
  properties: {
    tileUrl: { type: ['string', 'null'] },
    coordSystem: { type: 'string', enum: ['WGS84', 'GCJ02'] },
    attribution: {
      type: ['string', 'null'],
      description: 'credit to show on the map (HTML of a text and links); null when none is needed',
    },
  },
} as const;
export type MapConfig = FromSchema<typeof mapConfigSchema>;

export const sharedPositionSchema = {
  type: 'object',
  required: ['latitude', 'longitude', 'speed', 'direction', 'time'],
  properties: {
    latitude: { type: 'number' },
    longitude: { type: 'number' },
    speed: { type: 'number' },
    direction: { type: 'number' },
    time: { type: 'string', format: 'date-time' },
  },
} as const;
export type SharedPosition = FromSchema<typeof sharedPositionSchema>;

/** `GET /api/location/{ticket}`: the shared vehicle's licence and latest position (null until its terminal reported). */
export const sharedLocationSchema = {
  type: 'object',
  required: ['licence', 'position'],
  properties: {
    licence: { type: 'string' },
    position: { anyOf: [sharedPositionSchema, { type: 'null' }] },
  },
} as const;
export type SharedLocation = FromSchema<typeof sharedLocationSchema>;

/** What every share ticket answer tells of the ticket: which, for which vehicle, and its validity. */
const ticketProperties = {
  id: { type: 'integer' },
  vehicleId: { type: 'integer' },
  createdAt: { type: 'string', format: 'date-time' },
  expiresAt: { type: 'string', format: 'date-time' },
} as const;

/** A share ticket as a vehicle's list shows it; the revocation only once revoked. */
export const shareTicketSchema = {
  type: 'object',
  required: ['id', 'vehicleId', 'status', 'createdAt', 'expiresAt', 'createdBy'],
  properties: {
    ...ticketProperties,
    status: { type: 'string', enum: ['active', 'expired', 'revoked'] },
    createdBy: { type: 'string' },
    revokedAt: { type: 'string', format: 'date-time' },
    revokedBy: { type: ['string', 'null'] },
  },
} as const;
export type ShareTicket = FromSchema<typeof shareTicketSchema>;

/** A ticket just created: the only answer that holds the ticket itself, and the page's path. */
export const newShareTicketSchema = {
  type: 'object',
  required: ['id', 'vehicleId', 'ticket', 'path', 'createdAt', 'expiresAt'],
  properties: { ...ticketProperties, ticket: { type: 'string' }, path: { type: 'string' } },
} as const;
