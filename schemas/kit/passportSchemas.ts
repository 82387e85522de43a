/**
 * Request bodies of the passport (accounts, organisations, roles, resources), checked by the
 * console's forms and the server alike. Field labels live under `passport.fields.*`.
 */
import { APPLICATIONS } from './loginSchema';

const str = (max: number, min = 0) => ({ type: 'string', ...(min ? { minLength: min } : {}), maxLength: max });
const optional = (s: Record<string, unknown>) => ({ ...s, type: [s.type as string, 'null'] });
const id = { type: 'integer', minimum: 1, maximum: 2147483647 };
const MEMBER_TYPES = ['administrator', 'orgUser', 'serviceUser', 'externalUser'];
const ORG_TYPES = ['factory', 'inPlant', 'service', 'client', 'serviceTeam'];
const STATUS = ['enabled', 'disabled'];

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

const memberProperties = {
  loginName: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[^\\s/]+$' },
  name: str(64, 1),
  mobile: optional({ type: 'string', format: 'phone', 'x-messages': { format: 'validation.phone' } }),
  memberType: { type: 'string', enum: MEMBER_TYPES },
  orgId: id,
  expireDate: optional({ type: 'string', format: 'date' }),
  status: { type: 'string', enum: STATUS },
  roleIds: { type: 'array', maxItems: 100, uniqueItems: true, items: id },
  applications: { type: 'array', maxItems: APPLICATIONS.length, uniqueItems: true, items: { type: 'string', enum: [...APPLICATIONS] } },
};

export const registerBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['loginName', 'name', 'memberType', 'expireDate', 'password'],
  properties: {
    ...memberProperties,
    password: accountPassword,
    /** Answer to "registered on another platform: enable it here?" */
    enableExisting: { type: 'boolean' },
  },
};

export const memberUpdateBodySchema = {
  type: 'object',
  additionalProperties: false,
  properties: memberProperties,
};

export const orgBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['code', 'name', 'parentId'],
  properties: {
    code: { type: 'string', minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9_-]+$' },
    name: str(64, 1),
    parentId: id,
    type: { type: 'string', enum: ORG_TYPES },
    status: { type: 'string', enum: STATUS },
    contact: optional(str(64)),
    phone: optional({ type: 'string', format: 'phone', 'x-messages': { format: 'validation.phone' } }),
    address: optional(str(200)),
    isSystem: { type: 'boolean' },
    title: optional(str(64)),
    logo: optional({ type: 'string', format: 'external-link', maxLength: 512 }),
    themeColor: optional({ type: 'string', pattern: '^#[0-9a-fA-F]{6}$' }),
  },
};

export const orgUpdateBodySchema = { ...orgBodySchema, required: [] };

export const orgLinkBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['link'],
  properties: { link: optional({ type: 'string', format: 'external-link', maxLength: 512 }) },
};

export const roleBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: str(64, 1),
    description: optional(str(200)),
    orgId: id,
    resourceIds: { type: 'array', maxItems: 2000, uniqueItems: true, items: id },
  },
};

export const roleUpdateBodySchema = { ...roleBodySchema, required: [] };

export const authorizeBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['resourceIds'],
  properties: { resourceIds: roleBodySchema.properties.resourceIds },
};

export const resourceBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'code', 'kind', 'sort'],
  properties: {
    name: str(64, 1),
    code: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.:-]+$' },
    kind: { type: 'string', enum: ['Menu', 'Action'] },
    path: optional({ type: 'string', maxLength: 200, pattern: '^/' }),
    url: optional(str(200)),
    icon: optional(str(64)),
    sort: { type: 'integer', minimum: 0, maximum: 100000 },
    parentId: optional(id),
    hidden: { type: 'boolean' },
    affix: { type: 'boolean' },
    noCache: { type: 'boolean' },
    activeMenu: optional(str(200)),
  },
};

export const resourceUpdateBodySchema = { ...resourceBodySchema, required: [] };

export const auditBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['action'],
  properties: { action: str(64, 1), target: optional(str(200)), detail: optional(str(2000)) },
};
