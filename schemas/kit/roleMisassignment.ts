import type { FromSchema } from 'json-schema-to-ts';

/**
 * An account holding a role of an organisation outside its own and those above it (made before the
 * rule was enforced): the server lists them, the accounts page shows them.
 */
export const roleMisassignmentSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['memberId', 'loginName', 'memberName', 'orgName', 'roleId', 'roleName', 'roleOrgName'],
  properties: {
    memberId: { type: 'integer' },
    loginName: { type: 'string' },
    memberName: { type: 'string' },
    orgName: { type: 'string' },
    roleId: { type: 'integer' },
    roleName: { type: 'string' },
    roleOrgName: { type: 'string' },
  },
} as const;

export type RoleMisassignment = FromSchema<typeof roleMisassignmentSchema>;

/** `GET /api/passport/member/role-misassignments`. */
export const roleMisassignmentsAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['total', 'data'],
  properties: { total: { type: 'integer' }, data: { type: 'array', items: roleMisassignmentSchema } },
} as const;
