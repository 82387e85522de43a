import type { FromSchema } from 'json-schema-to-ts';

/** A terminal offered for binding (SPEC §7 terminal suggest): its id (the select's value), number, SIM and the vehicle using it. */
export const terminalSuggestionSchema = {
  type: 'object',
  required: ['value', 'label', 'terminalNo', 'sim', 'licence'],
  properties: {
    value: { type: 'integer' },
    label: { type: 'string', description: 'the terminal number' },
    terminalNo: { type: 'string' },
    sim: { type: 'string' },
    licence: { type: ['string', 'null'], description: 'the vehicle using it, null when free' },
  },
} as const;

export type TerminalSuggestion = FromSchema<typeof terminalSuggestionSchema>;

/**
 * What the suggest route accepts as its search text: terminal numbers are letters and digits, SIMs
 * digits, so anything else can match nothing. The server's parameter schema and the console's
 * bind dialog both read these.
 */
export const SUGGEST_QUERY = { minLength: 1, maxLength: 30, pattern: '^[0-9A-Za-z]+$' } as const;

const SUGGEST_PATTERN = new RegExp(SUGGEST_QUERY.pattern);

export const isSuggestQuery = (q: string): boolean =>
  q.length >= SUGGEST_QUERY.minLength && q.length <= SUGGEST_QUERY.maxLength && SUGGEST_PATTERN.test(q);
