import type { FastifyInstance } from 'fastify';
import { LICENCE_PERMISSION, WITHIN_DAYS } from '../../schemas/kit/driverLicence';
import { MAX_PAGE_SIZE, pageResponseSchema } from '../../schemas/kit/entity';
import { callerOf } from '../auth/authenticate';
import type { VehicleDeps } from './deps';
import { licenceExpiries } from './driverLicences';

/**
 * Who may read the licence-expiry list (LICENCE_PERMISSION). The driver schema's read rule is NONE
 * (every signed-in member), which would leave no code to grant; this list is the work of whoever
 * keeps drivers' licences up to date, so it takes the code that edits a driver.
 */
export { LICENCE_PERMISSION };

const withinDaysMessage = { type: 'driver.withinDays', minimum: 'driver.withinDays', maximum: 'driver.withinDays' };

/** The standard paging body; the criteria are the look-ahead, the only order the expiry. */
const body = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {
    criteria: {
      type: ['object', 'null'],
      additionalProperties: false,
      properties: { withinDays: { type: ['integer', 'null'], minimum: WITHIN_DAYS.min, maximum: WITHIN_DAYS.max, 'x-messages': withinDaysMessage } },
    },
    order: {
      type: ['object', 'null'],
      additionalProperties: false,
      properties: {
        direction: { enum: ['ASC', 'DESC', 'asc', 'desc', 'ascend', 'descend', null] },
        property: { enum: ['licenseExpire', null] },
      },
    },
    pageIndex: { type: 'integer', minimum: 1, default: 1 },
    pageSize: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: 20 },
  },
};

interface Body {
  criteria?: { withinDays?: number | null } | null;
  order?: { direction?: string | null } | null;
  pageIndex: number;
  pageSize: number;
}

const vehicleRef = { type: 'object', properties: { id: { type: 'integer' }, licence: { type: 'string' } } };
const row = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    mobile: { type: 'string' },
    orgId: { type: 'integer' },
    orgName: { type: 'string' },
    licenseNo: { type: ['string', 'null'] },
    licenseClass: { type: ['string', 'null'] },
    licenseExpire: { type: 'string', format: 'date' },
    daysLeft: { type: 'integer', description: 'days from today to the expiry; negative once expired' },
    status: { type: 'string' },
    vehicles: { type: 'array', items: vehicleRef },
  },
};

/**
 * SPEC §7 `POST driver/licenses`: the licence-expiry list a dispatcher works from — drivers of the
 * caller's subtree whose licence has expired or expires within `criteria.withinDays` days (default
 * 30), by expiry, each with the days left and the vehicles the driver is assigned to.
 */
export function registerDriverLicenceRoutes(app: FastifyInstance, { db, model }: VehicleDeps): void {
  const drivers = model('driver');
  app.post(
    '/api/vehicle/driver/licenses',
    {
      config: { permission: LICENCE_PERMISSION, labels: 'driver.fields' },
      schema: { tags: ['driver'], summary: 'drivers whose licence has expired or expires soon', body, response: { 200: pageResponseSchema(row) } },
    },
    async (req) => {
      const b = (req.body ?? { pageIndex: 1, pageSize: 20 }) as Body;
      return licenceExpiries(db, drivers, callerOf(req), {
        withinDays: b.criteria?.withinDays ?? WITHIN_DAYS.default,
        direction: b.order?.direction && /^desc/i.test(b.order.direction) ? 'DESC' : 'ASC',
        pageIndex: b.pageIndex ?? 1,
        pageSize: b.pageSize ?? 20,
      });
    },
  );
}
