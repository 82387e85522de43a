import type { FromSchema } from 'json-schema-to-ts';
import { NORMALISERS, type Normaliser } from './vehicleCodes';

/**
 * Types of our entity-schema conventions (schemas/README.md) and the pure helpers that derive
 * request schemas from an entity schema. Shared by the server, the console and the generators.
 */

import { MAX_PAGE_SIZE, pagingBodySchema } from './paging';

export type SearchMode = 'like' | 'eq' | 'range';
export type Widget = 'text' | 'textarea' | 'password' | 'number' | 'select' | 'treeSelect' | 'date' | 'dateRange' | 'switch' | 'upload';

export interface XUi {
  /** Shown as a table column (default true for non-hidden properties). */
  column?: boolean;
  /** Searchable in `criteria`, and how. Only these keys are accepted in criteria. */
  search?: SearchMode;
  /** May be used as `order.property`. */
  sort?: boolean;
  widget?: Widget;
  /** Position in tables and forms (ascending). */
  order?: number;
  /** Not shown in the form (still in the table unless column is false). */
  hideInForm?: boolean;
}

export interface XRef {
  /** Entity name of the referenced registry entry, or 'organisation'. */
  entity: string;
  /** Column of the referenced table shown instead of the id. */
  label: string;
  /** Read-only output property carrying that label in list and get responses. */
  as: string;
  /**
   * The form offers only referenced rows no row of this entity uses through this property yet (a
   * terminal serves one vehicle): the options route's `unusedBy=<entity>.<property>`.
   */
  free?: boolean;
}

/** Row operations of the generic CRUD. */
export const CRUD_OPERATIONS = ['create', 'update', 'remove', 'get', 'query', 'options'] as const;
export type CrudOperation = (typeof CRUD_OPERATIONS)[number];
/** Spreadsheet operations (SPEC §9): export, template, import (validate first), renew (update by key). */
export type SheetOperation = 'export' | 'template' | 'importValidate' | 'import' | 'renewValidate' | 'renew';
export type Operation = CrudOperation | SheetOperation;

/** 'METHOD /path' with {param} placeholders; several entries give aliases. */
export type RouteList = string[];

/**
 * The console page of an entity: its key is the menu resource's `url` (the page registry's key),
 * e.g. `fleet/brand`; the segments before the last name the menu area it sits in (`fleet`).
 */
export interface XPage {
  key: string;
  /** antd icon name for a menu entry derived from the schema (default AppstoreOutlined). */
  icon?: string;
}

/** `area/…/name`: camelCase segments, at least two. */
export const PAGE_KEY = /^[a-z][A-Za-z0-9]*(\/[a-z][A-Za-z0-9]*)+$/;

export interface XEntity {
  name: string;
  table: string;
  /** Rows belong to an organisation and are visible only inside the caller's subtree. */
  orgScoped: boolean;
  /**
   * Rows are shared by every organisation (not org-scoped): everyone reads them, only members of a
   * system organisation create, change, delete, import or renew them.
   */
  shared?: boolean;
  /** The generic list page the console renders for the entity, and its menu entry. */
  page?: XPage;
  /**
   * Action codes per operation; 'NONE' means any signed-in member. `export` defaults to `read`,
   * `import` to `create`, `renew` to `update`.
   */
  permissions: Record<'read' | 'create' | 'update' | 'remove', string> & Partial<Record<'export' | 'import' | 'renew', string>>;
  routes: Partial<Record<Operation, RouteList>>;
  /** Sets of properties unique together (the database enforces them; violations answer 406). */
  unique?: string[][];
  /**
   * Properties unique within a tenant's whole tree (the organisation directly under the root that
   * a row's organisation belongs to, with everything below it; the root's own rows: the whole
   * platform). Checked on create, update and import (406 / a row error).
   */
  uniqueInTenant?: string[];
  /**
   * Properties that each name the same thing to the outside world (a terminal's number and SIM
   * both name it in the JT/T 808 header): every value, leading zeros ignored (deviceIdentity), may
   * belong to one row only, across these properties and every organisation. The database enforces
   * it in `<table>_identity` (a clash answers 406 identityTaken, naming neither the other row's
   * property nor its organisation); imports check it per row.
   */
  identity?: string[];
  /** Properties searched by criteria.keyword (case-insensitive contains on any of them). */
  keyword?: string[];
  defaultOrder?: { property: string; direction: 'ASC' | 'DESC' };
  /** Property used as the label in options lists (default 'name'). */
  optionLabel?: string;
  /** A property the `options` route answers beside the label, telling apart rows of one label (a driver's mobile). */
  optionDetail?: string;
  /** Read-only properties the server fills on every create and update: who (member name) and when. */
  stamp?: { operator: string; time: string };
  /** Renewal by spreadsheet: rows name an existing row by `match` and set only `fields`. */
  renew?: { match: string; fields: string[] };
  /**
   * The routes are hand-written (the passport's): the generic CRUD serves none of them, `npm run gen`
   * writes no migration (the table exists), no mock route and no generic page. Types, validators,
   * labels, columns and form fields come from the schema as for any entity.
   */
  handWritten?: boolean;
}

/** Operations that write rows: refused to non-system organisations on a shared entity. */
export const WRITE_OPERATIONS: ReadonlySet<Operation> = new Set<Operation>([
  'create',
  'update',
  'remove',
  'importValidate',
  'import',
  'renewValidate',
  'renew',
]);
/** Whether the generic CRUD serves the entity (it does unless its routes are hand-written). */
export const servedByCrud = (schema: EntitySchema): boolean => !schema['x-entity'].handWritten;

/** The action code guarding an operation (spreadsheet operations fall back to the row ones). */
export function permissionOf(x: XEntity, op: Operation): string {
  const p = x.permissions;
  switch (op) {
    case 'get':
    case 'query':
    case 'options':
    case 'template':
      return p.read;
    case 'export':
      return p.export ?? p.read;
    case 'importValidate':
    case 'import':
      return p.import ?? p.create;
    case 'renewValidate':
    case 'renew':
      return p.renew ?? p.update;
    default:
      return p[op];
  }
}

export interface PropertySchema {
  type?: 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | Array<string>;
  format?: string;
  enum?: Array<string | number | boolean | null>;
  const?: unknown;
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  readOnly?: boolean;
  /** Sent on create only, never answered nor changed by an update (a password). */
  writeOnly?: boolean;
  title?: string;
  description?: string;
  items?: PropertySchema;
  'x-ui'?: XUi;
  'x-ref'?: XRef;
  'x-messages'?: Record<string, string>;
  'x-column'?: string;
  /** Normalisations applied before validation (kit/vehicleCodes.ts). */
  'x-normalize'?: Normaliser[];
  /** This date may not come before that sibling date property (kit/dateOrder.ts). */
  'x-notBefore'?: string;
}

/** The type a property holds besides null. */
export const baseType = (p: PropertySchema): string | undefined => (Array.isArray(p.type) ? p.type.find((t) => t !== 'null') : p.type);

export interface EntitySchema {
  $schema?: string;
  $id?: string;
  title?: string;
  description?: string;
  type: 'object';
  required?: string[];
  properties: Record<string, PropertySchema>;
  additionalProperties?: boolean;
  'x-entity': XEntity;
}

/** Properties every entity has; added by `effectiveSchema`, never written in the schema files. */
export const STANDARD_PROPERTIES: Record<string, PropertySchema> = {
  id: { type: 'integer', readOnly: true, 'x-ui': { column: false, sort: true } },
  createdAt: { type: 'string', format: 'date-time', readOnly: true, 'x-ui': { column: false, sort: true, order: 900 } },
  updatedAt: { type: 'string', format: 'date-time', readOnly: true, 'x-ui': { sort: true, order: 901 } },
};

export const ORG_PROPERTIES: Record<string, PropertySchema> = {
  orgId: {
    type: 'integer',
    minimum: 1,
    'x-ui': { search: 'eq', widget: 'treeSelect', order: 800 },
    'x-ref': { entity: 'organisation', label: 'name', as: 'orgName' },
  },
};

/**
 * The schema as the server and console use it: the file's properties plus the standard ones,
 * the organisation (when org-scoped) and the read-only label of every relation.
 */
export function effectiveSchema(file: EntitySchema): EntitySchema {
  const props: Record<string, PropertySchema> = { ...STANDARD_PROPERTIES };
  if (file['x-entity'].orgScoped) Object.assign(props, ORG_PROPERTIES);
  Object.assign(props, file.properties);
  for (const p of Object.values(props)) {
    const ref = p['x-ref'];
    if (ref && !props[ref.as]) props[ref.as] = { type: ['string', 'null'], readOnly: true, 'x-ui': { column: false } };
  }
  return { ...file, properties: props, additionalProperties: false };
}

/** snake_case column of a property. */
export function columnOf(name: string, prop?: PropertySchema): string {
  return prop?.['x-column'] ?? name.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase());
}

/** Name of the unique index for a set of columns; the server maps violations back through it. */
export const uniqueIndexName = (table: string, columns: string[]) => `${table}_${columns.join('_')}_key`;

/** The table holding an entity's identities (x-entity.identity) and its key, which a clash names. */
export const identityTable = (table: string) => `${table}_identity`;
export const identityIndexName = (table: string) => `${identityTable(table)}_pkey`;

/** The column of `<table>_identity` naming the row an identity belongs to. */
export const identityOwnerColumn = (table: string) => `${table}_id`;

/**
 * A natural key: what names one stored row to a person (a licence, a VIN, a terminal's number).
 * `unique`: the properties together (x-entity.unique); `tenant`: the property within the tenant's
 * tree (uniqueInTenant); `identity`: any of the properties, as a device identity (x-entity.identity).
 */
export type NaturalKey = { kind: 'unique' | 'tenant' | 'identity'; props: string[] };

/** Every natural key the schema declares: an imported row naming one of them is that row. */
export function naturalKeys(x: XEntity): NaturalKey[] {
  return [
    ...(x.unique ?? []).map((props): NaturalKey => ({ kind: 'unique', props })),
    ...(x.uniqueInTenant ?? []).map((p): NaturalKey => ({ kind: 'tenant', props: [p] })),
    ...(x.identity ? [{ kind: 'identity' as const, props: x.identity }] : []),
  ];
}

/**
 * A device identity as compared: leading zeros ignored (the JT/T 808 header zero-pads the phone to
 * its BCD width), all zeros being '0'. The database's terminal_identity_of() is the same rule.
 */
export const deviceIdentity = (value: string): string => value.replace(/^0+/, '') || '0';

/** Properties stored in the entity's own table (not relation labels). */
export function storedProperties(schema: EntitySchema): Array<[string, PropertySchema]> {
  const labels = new Set(
    Object.values(schema.properties)
      .map((p) => p['x-ref']?.as)
      .filter((x): x is string => !!x),
  );
  return Object.entries(schema.properties).filter(([name]) => !labels.has(name));
}

/** Stored as text (so "contains" search runs on the value itself, no cast). */
export function isTextProperty(p: PropertySchema | undefined): boolean {
  const t = Array.isArray(p?.type) ? p.type.find((x) => x !== 'null') : p?.type;
  return !!p && (t === undefined || t === 'string') && p.format !== 'date' && p.format !== 'date-time';
}

/**
 * `keyword` searches the entity's own keyword columns as one text: the values joined by a separator
 * no keyword contains (the query strips it), so one trigram index serves the whole OR and the
 * planner estimates it as one condition. The migration's index and the query must use this same
 * expression (`alias` qualifies columns in the query; the index names them bare).
 */
export const KEYWORD_SEPARATOR = '\x1f';

export function keywordColumns(schema: EntitySchema): Array<{ col: string; text: boolean }> {
  const own = new Map(storedProperties(schema));
  return (schema['x-entity'].keyword ?? [])
    .filter((k) => own.has(k))
    .map((k) => ({ col: columnOf(k, own.get(k)), text: isTextProperty(own.get(k)) }));
}

export function keywordDocument(columns: Array<{ col: string; text: boolean }>, alias?: string): string {
  const ref = (c: { col: string; text: boolean }) => `${alias ? alias + '.' : ''}${c.col}${c.text ? '' : '::text'}`;
  if (columns.length === 1) return ref(columns[0]);
  return columns.map((c) => `coalesce(${ref(c)}, '')`).join(` || E'\\x1f' || `);
}

/** Writable properties (what a create or update body may set). */
export function writableProperties(schema: EntitySchema): Array<[string, PropertySchema]> {
  return storedProperties(schema).filter(([, p]) => !p.readOnly);
}

/** Optional fields accept null (and the server turns '' into null), so a form can clear them. */
function nullable(p: PropertySchema): PropertySchema {
  if (!p.type) return p;
  const types = Array.isArray(p.type) ? p.type : [p.type];
  if (types.includes('null')) return p;
  return { ...p, type: [...types, 'null'], ...(p.enum ? { enum: [...p.enum, null] } : {}) };
}

function bodySchema(schema: EntitySchema, requireFields: boolean): Record<string, unknown> {
  const required = (schema.required ?? []).filter((r) => !schema.properties[r]?.readOnly);
  const properties: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(schema.properties)) {
    // Write-only properties (a password) belong to the create body alone.
    if (p.writeOnly && !requireFields) continue;
    // Read-only properties (id, timestamps, relation labels) are tolerated and ignored, so a client
    // may send back the object it read. Defaults are the database's job, so no default here.
    const { default: _default, ...rest } = p;
    properties[name] = p.readOnly ? {} : required.includes(name) ? rest : nullable(rest);
  }
  return { type: 'object', additionalProperties: false, ...(requireFields ? { required } : {}), properties };
}

/** The create body: writable properties, required ones present. */
export const createBodySchema = (schema: EntitySchema) => bodySchema(schema, true);
/** The update body: any subset of the writable properties (absent ones are left unchanged). */
export const updateBodySchema = (schema: EntitySchema) => bodySchema(schema, false);

/**
 * Before validation, in place (server routes, console forms and imports alike): each text property
 * normalised as its `x-normalize` declares (" 沪a 10137 " → "沪A10137"), then '' turned into null
 * for optional properties.
 */
export function normaliseBody(schema: EntitySchema, body: Record<string, unknown>): void {
  const required = new Set(schema.required ?? []);
  for (const [k, v] of Object.entries(body)) {
    const steps = schema.properties[k]?.['x-normalize'];
    if (steps && typeof v === 'string') body[k] = steps.reduce((s, step) => NORMALISERS[step](s), v);
    if (body[k] === '' && schema.properties[k] && !required.has(k)) body[k] = null;
  }
}

export function searchableProperties(schema: EntitySchema): Array<[string, PropertySchema, SearchMode]> {
  return Object.entries(schema.properties)
    .filter(([, p]) => p['x-ui']?.search)
    .map(([n, p]) => [n, p, p['x-ui']!.search!]);
}

export function sortableProperties(schema: EntitySchema): string[] {
  return Object.entries(schema.properties)
    .filter(([, p]) => p['x-ui']?.sort)
    .map(([n]) => n);
}

export { MAX_PAGE_SIZE };

/** The paging body `{criteria, order{direction, property}, pageIndex, pageSize}` for one entity. */
export function queryBodySchema(schema: EntitySchema): Record<string, unknown> {
  const criteria: Record<string, unknown> = {};
  for (const [name, p, mode] of searchableProperties(schema)) {
    const scalar = criterionValueSchema(p);
    criteria[name] =
      mode === 'range'
        ? { type: ['array', 'null'], maxItems: 2, items: { anyOf: [scalar, { type: 'null' }, { const: '' }] } }
        : { anyOf: [scalar, { type: 'null' }, { const: '' }] };
  }
  if (schema['x-entity'].keyword?.length) criteria.keyword = { type: ['string', 'null'], maxLength: 100 };
  return pagingBodySchema(criteria, sortableProperties(schema));
}

function criterionValueSchema(p: PropertySchema): PropertySchema {
  const base = baseType(p);
  const out: PropertySchema = { type: (base ?? 'string') as PropertySchema['type'] };
  if (p.enum) out.enum = p.enum.filter((v) => v !== null);
  if (base === 'string') out.maxLength = 100;
  if (p.format === 'date' || p.format === 'date-time') out.format = p.format;
  return out;
}

/** The page every list answers with. */
export interface Page<T> {
  data: T[];
  /** Rows matching the criteria: exact when `totalExact`, otherwise a lower bound (counting stopped). */
  total: number;
  /** False when counting stopped at the cap (10,000 rows, or the end of the requested page if further). */
  totalExact: boolean;
  pageIndex: number;
  pageSize: number;
}

export const pageResponseSchema = (item: Record<string, unknown>) => ({
  type: 'object',
  properties: {
    data: { type: 'array', items: item },
    total: { type: 'integer', description: 'rows matching the criteria; a lower bound when totalExact is false' },
    totalExact: { type: 'boolean', description: 'false when counting stopped at max(10000, pageIndex × pageSize) rows' },
    pageIndex: { type: 'integer' },
    pageSize: { type: 'integer' },
  },
});

/** One choice of a select, as an entity's options route answers it (the label may be an optional field, so null). */
export const optionItemSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['value', 'label'],
  properties: {
    value: { type: 'integer', description: 'the row id' },
    label: { type: ['string', 'null'], description: "the row's `x-entity.optionLabel`" },
    detail: {
      type: ['string', 'null'],
      description: "`x-entity.optionDetail`: what tells two rows of one label apart (a driver's mobile)",
    },
  },
} as const;

export type OptionItem = FromSchema<typeof optionItemSchema>;

/** The path of the tenant an organisation path belongs to: its first two levels (`/1/2/3/` → `/1/2/`). */
export function tenantPath(orgPath: string): string {
  const parts = orgPath.split('/').filter(Boolean);
  return `/${parts.slice(0, 2).join('/')}/`;
}
