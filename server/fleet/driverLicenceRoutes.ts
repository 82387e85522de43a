import type { FastifyInstance } from 'fastify';
import { int, nullable, str } from '../platform/crud/routeSpec';
import { LICENCE_PERMISSION, WITHIN_DAYS } from '../../schemas/kit/driverLicence';
import { pageResponseSchema } from '../../schemas/kit/entity';
import { directionOf, pagingBodySchema, pagingOf } from '../platform/paging';
import { callerOf } from '../platform/auth/authenticate';
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
const body = pagingBodySchema(
  { withinDays: { type: ['integer', 'null'], minimum: WITHIN_DAYS.min, maximum: WITHIN_DAYS.max, 'x-messages': withinDaysMessage } },
  ['licenseExpire'],
  { nullable: true },
);

const vehicleRef = { type: 'object', properties: { id: int, licence: str } };
const row = {
  type: 'object',
  properties: {
    id: int,
    name: str,
    mobile: str,
    orgId: int,
    orgName: str,
    licenseNo: nullable('string'),
    licenseClass: nullable('string'),
    licenseExpire: { type: 'string', format: 'date' },
    daysLeft: { type: 'integer', description: 'days from today to the expiry; negative once expired' },
    status: str,
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
      schema: {
        tags: ['driver'],
        summary: 'drivers whose licence has expired or expires soon',
        body,
        response: { 200: pageResponseSchema(row) },
      },
    },
    async (req) => {
      const p = pagingOf(req);
      const withinDays = p.criteria?.withinDays;
      return licenceExpiries(db, drivers, callerOf(req), {
        withinDays: typeof withinDays === 'number' ? withinDays : WITHIN_DAYS.default,
        direction: directionOf(p.order),
        pageIndex: p.pageIndex,
        pageSize: p.pageSize,
      });
    },
  );
}
