/**
 * `POST /api/vehicle/geocode/reverse`: the addresses of up to 200 positions at once, for every page
 * that shows a position to a person (the monitor's card, alarms, messages, trips, stops). Any member
 * may ask: an address says nothing a position does not.
 */

import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { NONE } from '../../schemas/kit/authority';
import type { DB } from '../platform/db/tables';
import { requestLanguage } from '../platform/http/language';
import type { GeocodeConfig } from './config';
import { typed } from '../platform/http/typed';
import { ReverseGeocoder } from './geocoder';
import { OfflineDistricts } from './offlineDistricts';
import { makeProvider } from './providers';

export const MAX_POINTS = 200;

/** One set of boundaries per process: parsed once, whichever app asks. */
let offline: OfflineDistricts | null = null;

const point = {
  type: 'object',
  required: ['latitude', 'longitude'],
  additionalProperties: false,
  properties: { latitude: { type: 'number', minimum: -90, maximum: 90 }, longitude: { type: 'number', minimum: -180, maximum: 180 } },
} as const;

export function registerGeocodeRoutes(app: FastifyInstance, db: Kysely<DB>, config: GeocodeConfig): ReverseGeocoder {
  offline ??= new OfflineDistricts();
  const geocoder = new ReverseGeocoder(
    db,
    config.provider ? makeProvider(config.provider) : null,
    offline,
    { timeoutMs: config.timeoutMs, waitMs: config.waitMs },
    (msg) => app.log.warn(msg),
  );
  typed(app).post(
    '/api/vehicle/geocode/reverse',
    {
      config: { permission: NONE, labels: 'geocode' },
      schema: {
        tags: ['geocode'],
        summary: 'addresses of positions (WGS-84): the configured provider’s, cached, else province / city / district',
        body: {
          type: 'object',
          required: ['points'],
          additionalProperties: false,
          properties: { points: { type: 'array', minItems: 1, maxItems: MAX_POINTS, items: point } },
        } as const,
        response: {
          200: {
            type: 'object',
            additionalProperties: false,
            properties: {
              provider: { type: ['string', 'null'] },
              data: {
                type: 'array',
                items: {
                  type: 'object',
                  additionalProperties: false,
                  properties: {
                    latitude: { type: 'number' },
                    longitude: { type: 'number' },
                    address: { type: ['string', 'null'] },
                    source: { type: ['string', 'null'], enum: ['provider', 'district', null] },
                  },
                },
              },
            },
          },
        },
      },
    },
    async (req) => {
      const { points } = req.body;
      return { provider: geocoder.providerName, data: await geocoder.addresses(points, requestLanguage(req)) };
    },
  );
  return geocoder;
}
