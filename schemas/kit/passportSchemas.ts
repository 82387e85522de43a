/**
 * Request bodies of the passport (accounts, organisations, roles, resources), checked by the
 * console's forms and the server alike. Field labels live under `passport.fields.*`. The entity
 * bodies come from the entity schemas (schemas/organisation, member, appMember, role, resource
 * .schema.json, hand-written routes); the rest are the passport's own calls.
 */
import { handWrittenEntities } from '../generated/registry';
import { createBodySchema, updateBodySchema } from './entity';

const { organisation, member, appMember, role, resource } = handWrittenEntities;

export const orgBodySchema = createBodySchema(organisation);
export const orgUpdateBodySchema = updateBodySchema(organisation);
/** Registration: the account's create body (its password included). */
export const registerBodySchema = createBodySchema(member);
export const memberUpdateBodySchema = updateBodySchema(member);
/**
 * What the App account page may change: its writable properties only. The login name, type and the
 * other read-only ones are refused, not ignored, so nobody believes they changed them.
 */
export const appMemberBodySchema = (() => {
  const body = updateBodySchema(appMember) as { properties: Record<string, unknown> };
  const writable = Object.entries(body.properties).filter(([n]) => !appMember.properties[n]?.readOnly);
  return { ...body, properties: Object.fromEntries(writable) };
})();
export const roleBodySchema = createBodySchema(role);
export const roleUpdateBodySchema = updateBodySchema(role);
export const resourceBodySchema = createBodySchema(resource);
export const resourceUpdateBodySchema = updateBodySchema(resource);

const id = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;

const loginPassword = {
  type: 'string',
  format: 'login-password',
  'x-messages': { required: 'validation.loginPassword.required', format: 'validation.loginPassword.format' },
} as const;
/** Account-form passwords: 6–20 characters (SPEC §5). */
const accountPassword = { type: 'string', format: 'login-password', 'x-messages': { format: 'validation.accountPassword' } } as const;

export const changePasswordBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['oldPassword', 'newPassword'],
  properties: {
    oldPassword: loginPassword,
    newPassword: { type: 'string', format: 'strong-password', 'x-messages': { format: 'validation.password.tooWeak' } },
    confirmPassword: { type: 'string', maxLength: 64, 'x-messages': { required: 'validation.confirmPassword.required' } },
    uid: { type: 'string', maxLength: 64 },
  },
} as const;

export const resetPasswordBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'password'],
  properties: { id, password: accountPassword },
} as const;

export const orgLinkBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['link'],
  properties: { link: { type: ['string', 'null'], format: 'external-link', maxLength: 512 } },
} as const;

/** The role schema's resourceIds (schemas/role.schema.json), as the role form sends them. */
export const authorizeBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['resourceIds'],
  properties: {
    resourceIds: {
      ...role.properties.resourceIds,
      type: 'array',
      items: id,
    },
  },
} as const;

export const auditBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['action'],
  properties: {
    action: { type: 'string', minLength: 1, maxLength: 64 },
    target: { type: ['string', 'null'], maxLength: 200 },
    detail: { type: ['string', 'null'], maxLength: 2000 },
  },
} as const;
