import type { FromSchema } from 'json-schema-to-ts';

const nullable = <const T extends 'string' | 'integer'>(type: T, description?: string) =>
  ({ type: [type, 'null'], ...(description ? { description } : {}) }) as const;

/** One line of the audit log as `POST /api/vehicle/audit/query` answers it (server/passport/auditRoutes.ts). */
export const auditRecordSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'at',
    'action',
    'memberId',
    'memberName',
    'orgId',
    'orgName',
    'actorName',
    'application',
    'target',
    'targetKind',
    'targetName',
    'success',
    'ip',
    'detail',
  ],
  properties: {
    id: { type: 'integer' },
    at: { type: 'string', format: 'date-time' },
    action: { type: 'string' },
    memberId: nullable('integer'),
    memberName: nullable('string'),
    orgId: nullable('integer'),
    orgName: { type: 'string' },
    actorName: nullable('string', 'who really acted, when the member was simulated'),
    application: nullable('string'),
    target: nullable('string'),
    targetKind: nullable('string', 'the kind of thing the target is (an entity name), null for free text'),
    targetName: nullable('string', "the target's name now, or as recorded when it was deleted"),
    success: { type: 'boolean' },
    ip: nullable('string'),
    detail: nullable('string'),
  },
} as const;

export type AuditRecord = FromSchema<typeof auditRecordSchema>;
