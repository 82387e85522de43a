/** Request and answer schemas of the report routes (OpenAPI at /api/docs and validation). */

import { MAX_PAGE_SIZE } from '../../schemas/kit/entity';
import { NONE } from '../platform/auth/caller';

import { instant } from '../../schemas/kit/trips';
import { ledgerCriteriaProperties, ledgerFigureProperties } from '../../schemas/kit/ledger';

export {
  driverRefSchema,
  instant,
  placeSchema as place,
  replayPointSchema,
  segmentSchema,
  stopSchema,
  summarySchema,
  tripSchema,
} from '../../schemas/kit/trips';
export const date = { type: 'string', format: 'date', description: 'local day (FLEET_TIMEZONE), YYYY-MM-DD' } as const;

/**
 * Property schemas as written: those written `as const` give the routes' types (a route that
 * still builds its schema at run time gets `unknown` parts, and must not cast them).
 */
type Properties = Readonly<Record<string, object>>;

/** `{begin, end}` and the route's own properties (`required` names those of them it needs). */
export const rangeBody = <const E extends Properties = Record<never, never>, const R extends readonly (keyof E & string)[] = []>(
  // The defaults stand for "none": an empty object and list of the inferred (empty) types.
  extra: E = {} as E,
  required: R = [] as unknown as R,
) =>
  ({
    type: 'object',
    additionalProperties: false,
    required: ['begin', 'end', ...required],
    properties: { begin: instant, end: instant, ...extra },
  }) as const;

export const pagingBody = <const C extends Properties, const R extends readonly (keyof C & string)[], const S extends readonly string[]>(
  criteria: C,
  requiredCriteria: R,
  sortable: S,
) =>
  ({
    type: 'object',
    additionalProperties: false,
    required: ['criteria'],
    properties: {
      criteria: { type: 'object', additionalProperties: false, required: requiredCriteria, properties: criteria },
      order: {
        type: ['object', 'null'],
        additionalProperties: false,
        properties: {
          direction: { enum: ['ASC', 'DESC', 'asc', 'desc', 'ascend', 'descend', null] },
          property: { enum: [...sortable, null] },
        },
      },
      pageIndex: { type: 'integer', minimum: 1, default: 1 },
      pageSize: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: 20 },
    },
  }) as const;

/** `{criteria: {begin, end, vehicleId?, orgId?, …}}` of the ledger reports. */
export const ledgerBody = <const E extends Properties = Record<never, never>>(
  // The default stands for "none": an empty object of the inferred (empty) type.
  extra: E = {} as E,
) =>
  ({
    type: 'object',
    additionalProperties: false,
    required: ['criteria'],
    properties: {
      criteria: {
        type: 'object',
        additionalProperties: false,
        required: ['begin', 'end'],
        properties: { ...ledgerCriteriaProperties, ...extra },
      },
    },
  }) as const;

/** The ledger's figures (schemas/kit/ledger.ts, which the console's types come from too). */
export const ledgerFigures = ledgerFigureProperties;

export const listOf = <const T extends object>(item: T) => ({ type: 'array', items: item }) as const;

/**
 * The options of the report routes of one tag: open to every signed-in caller (the scope limits the
 * rows), `labels` naming the fields in validation messages, and the request and 200 answer schemas.
 */
export const reportRoutes =
  (labels: string, tag: string) =>
  <const B extends object, const A extends object>(summary: string, body: B, answer: A) => ({
    config: { permission: NONE, labels },
    schema: { tags: [tag], summary, body, response: { 200: answer } },
  });
