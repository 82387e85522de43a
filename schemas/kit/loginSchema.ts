import type { FromSchema } from 'json-schema-to-ts';

/** The login body (SPEC.md §7 POST /login), checked by the login form and the server alike. */
export const APPLICATIONS = ['obd-web', 'vehicle-app'] as const;

export const loginBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['loginName', 'password'],
  properties: {
    loginName: { type: 'string', minLength: 1, maxLength: 64 },
    password: {
      type: 'string',
      format: 'login-password',
      'x-messages': { required: 'validation.loginPassword.required', format: 'validation.loginPassword.format' },
    },
    application: { type: 'string', enum: APPLICATIONS, default: 'obd-web' },
    ip: { type: 'string', maxLength: 64 },
  },
} as const;

/** What the validator lets through (the application defaulted). */
export type LoginBody = FromSchema<typeof loginBodySchema>;
