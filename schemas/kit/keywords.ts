/**
 * Annotation keywords our schemas carry. Registered as a vocabulary so ajv's strict mode accepts
 * them; they never affect validation.
 * - x-entity: table, routes, permissions, org scoping (entity level)
 * - x-ui: column, search, form widget, order (property level)
 * - x-ref: relation to another entity (property level)
 * - x-messages: per-keyword message keys overriding the generic ones (property level)
 * - x-column: database column name when it is not the snake_case of the property
 * - x-normalize: normalisations applied before validation (kit/vehicleCodes.ts `normaliseBody`)
 */
export const X_KEYWORDS = ['x-entity', 'x-ui', 'x-ref', 'x-messages', 'x-column', 'x-normalize'] as const;
