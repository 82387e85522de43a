/**
 * The action code that asks for no grant: any signed-in member may (schemas' `permissions`, the
 * server's route guards, the console's `<Permission>` and the default `X-Authority` header).
 */
export const NONE = 'NONE';
