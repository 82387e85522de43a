/** The one paging body every list route takes (SPEC §7), for the generic CRUD and the hand-written lists alike. */

export const MAX_PAGE_SIZE = 10000;

/** Values `order.direction` accepts: the console's table sends ascend/descend. */
export const ORDER_DIRECTIONS = ['ASC', 'DESC', 'asc', 'desc', 'ascend', 'descend'] as const;

/**
 * `{criteria, order{direction, property}, pageIndex, pageSize}`: `criteria` holds exactly the given
 * properties, `order.property` one of `sortable`. `nullable`: an absent body (null) is accepted too.
 */
export function pagingBodySchema(
  criteria: Record<string, unknown>,
  sortable: readonly string[],
  opts: { nullable?: boolean } = {},
): Record<string, unknown> {
  return {
    type: opts.nullable ? ['object', 'null'] : 'object',
    additionalProperties: false,
    properties: {
      criteria: { type: ['object', 'null'], additionalProperties: false, properties: criteria },
      order: {
        type: ['object', 'null'],
        additionalProperties: false,
        properties: {
          direction: { enum: [...ORDER_DIRECTIONS, null] },
          property: { enum: [...sortable, null] },
        },
      },
      pageIndex: { type: 'integer', minimum: 1, default: 1 },
      pageSize: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: 20 },
    },
  };
}
