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

const text = { type: 'string' } as const;
const textOrNull = { type: ['string', 'null'] } as const;

/**
 * A session's `object` (SPEC §3): the token, the member's summary and the organisation's branding
 * (from the nearest organisation up the tree that sets each).
 */
export const sessionObjectSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'token',
    'uid',
    'name',
    'memberType',
    'id',
    'branch',
    'firstSign',
    'memberId',
    'memberName',
    'orgType',
    'title',
    'logo',
    'themeColor',
  ],
  properties: {
    token: text,
    uid: text,
    name: text,
    memberType: text,
    id: { type: 'integer' },
    branch: { ...text, description: "the organisation's code" },
    firstSign: { type: 'boolean' },
    memberId: { type: 'integer' },
    memberName: text,
    orgType: text,
    title: textOrNull,
    logo: textOrNull,
    themeColor: textOrNull,
  },
} as const;

/** A login or a simulated login that opened a session. */
export const sessionAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['success', 'message', 'object'],
  properties: { success: { const: true }, message: text, object: sessionObjectSchema },
} as const;

/** A login whose password no longer meets the policy: a session that may only change it. */
export const weakPasswordAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['success', 'code', 'message', 'object'],
  properties: {
    success: { const: false },
    code: { const: 'weakPassword' },
    message: text,
    object: {
      type: 'object',
      additionalProperties: false,
      required: ['weakPassword', 'token', 'uid'],
      properties: { weakPassword: { const: true }, token: text, uid: text },
    },
  },
} as const;

export const loginAnswerSchema = { anyOf: [sessionAnswerSchema, weakPasswordAnswerSchema] } as const;

export type SessionObject = FromSchema<typeof sessionObjectSchema>;
export type SessionAnswer = FromSchema<typeof sessionAnswerSchema>;
export type WeakPasswordAnswer = FromSchema<typeof weakPasswordAnswerSchema>;

/** `GET /passport/member/current`: who the caller is, and whether it is a simulated login. */
export const currentMemberSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['memberId', 'memberName', 'orgType', 'orgId', 'orgName', 'loginName', 'memberType', 'uid', 'firstSign', 'simulated'],
  properties: {
    memberId: { type: 'integer' },
    memberName: text,
    orgType: text,
    orgId: { type: 'integer' },
    orgName: text,
    loginName: text,
    memberType: text,
    uid: text,
    firstSign: { type: 'boolean' },
    simulated: { type: 'boolean', description: 'the session is a simulated login (SPEC §4)' },
  },
} as const;

export type CurrentMember = FromSchema<typeof currentMemberSchema>;
