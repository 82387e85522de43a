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

const str = (max: number, min = 0) => ({ type: 'string', ...(min ? { minLength: min } : {}), maxLength: max });
const optional = (s: Record<string, unknown>) => ({ ...s, type: [s.type as string, 'null'] });
const id = { type: 'integer', minimum: 1, maximum: 2147483647 };

const loginPassword = {
  type: 'string',
  format: 'login-password',
  'x-messages': { required: 'validation.loginPassword.required', format: 'validation.loginPassword.format' },
};
/** Account-form passwords: 6–20 characters (SPEC §5). */
const accountPassword = { type: 'string', format: 'login-password', 'x-messages': { format: 'validation.accountPassword' } };

export const changePasswordBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['oldPassword', 'newPassword'],
  properties: {
    oldPassword: loginPassword,
    newPassword: { type: 'string', format: 'strong-password', 'x-messages': { format: 'validation.password.tooWeak' } },
    confirmPassword: { type: 'string', maxLength: 64, 'x-messages': { required: 'validation.confirmPassword.required' } },
    uid: str(64),
  },
};

export const resetPasswordBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'password'],
  properties: { id, password: accountPassword },
};

export const orgLinkBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['link'],
  properties: { link: optional({ type: 'string', format: 'external-link', maxLength: 512 }) },
};

export const authorizeBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['resourceIds'],
  properties: { resourceIds: role.properties.resourceIds },
};

export const auditBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['action'],
  properties: { action: str(64, 1), target: optional(str(200)), detail: optional(str(2000)) },
};
