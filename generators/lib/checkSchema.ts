import { createAjv } from '../../schemas/kit/ajv';
import { effectiveSchema, PAGE_KEY, type EntitySchema } from '../../schemas/kit/entity';
import type { SchemaFile } from './readSchemas';

const ROUTE = /^(GET|POST|PUT|DELETE|PATCH) \/[A-Za-z0-9/_{}-]+$/;
const NAME = /^[a-z][A-Za-z0-9]*$/;
const TABLE = /^[a-z][a-z0-9_]*$/;

/** Problems with one entity schema against the conventions of schemas/README.md (empty = fine). */
export function checkSchema(name: string, schema: EntitySchema, knownEntities: Set<string>): string[] {
  const problems: string[] = [];
  const x = schema['x-entity'];
  if (!x) return [`${name}: missing x-entity`];
  if (x.name !== name) problems.push(`${name}: x-entity.name must equal the file name`);
  if (!NAME.test(x.name)) problems.push(`${name}: x-entity.name must be camelCase`);
  if (!TABLE.test(x.table ?? '')) problems.push(`${name}: x-entity.table must be snake_case`);
  for (const op of ['read', 'create', 'update', 'remove'] as const) {
    if (!x.permissions?.[op]) problems.push(`${name}: x-entity.permissions.${op} is required`);
  }
  // Rows without an organisation belong to everyone: the schema says so, and only system members write them.
  // Hand-written entities (the passport's) scope themselves: an organisation by its own path.
  if (!x.orgScoped && x.shared !== true && !x.handWritten)
    problems.push(`${name}: x-entity.orgScoped false needs shared: true (rows of no organisation are shared by all)`);
  if (x.orgScoped && x.shared) problems.push(`${name}: x-entity.shared rows cannot be org-scoped`);
  if (x.page && !PAGE_KEY.test(x.page.key ?? ''))
    problems.push(`${name}: x-entity.page.key "${x.page.key}" must be "area/page" (camelCase segments)`);
  if (x.page?.icon !== undefined && !/^[A-Z][A-Za-z]*$/.test(x.page.icon))
    problems.push(`${name}: x-entity.page.icon "${x.page.icon}" must be an antd icon name`);
  if (x.page && !x.routes?.query) problems.push(`${name}: x-entity.page needs routes.query (the page lists the rows)`);
  for (const [op, routes] of Object.entries(x.routes ?? {})) {
    for (const r of routes ?? []) if (!ROUTE.test(r)) problems.push(`${name}: route ${op} "${r}" is not "METHOD /path"`);
  }
  const eff = effectiveSchema(schema);
  const props = eff.properties;
  for (const r of schema.required ?? []) if (!props[r]) problems.push(`${name}: required "${r}" is not a property`);
  for (const set of x.unique ?? []) for (const p of set) if (!props[p]) problems.push(`${name}: unique "${p}" is not a property`);
  for (const p of x.identity ?? []) if (!props[p]) problems.push(`${name}: identity "${p}" is not a property`);
  for (const p of x.keyword ?? []) if (!props[p]) problems.push(`${name}: keyword "${p}" is not a property`);
  if (x.defaultOrder && !props[x.defaultOrder.property]?.['x-ui']?.sort) problems.push(`${name}: defaultOrder property must be sortable`);
  for (const p of Object.values(x.stamp ?? {}))
    if (!props[p]?.readOnly) problems.push(`${name}: stamp "${p}" must be a read-only property`);
  if (x.renew) {
    if (!x.routes.renew || !x.routes.renewValidate) problems.push(`${name}: renew needs routes.renew and routes.renewValidate`);
    for (const p of [x.renew.match, ...x.renew.fields])
      if (!props[p] || props[p].readOnly) problems.push(`${name}: renew "${p}" is not a writable property`);
  }
  for (const [p, s] of Object.entries(schema.properties)) {
    if (!NAME.test(p)) problems.push(`${name}: property "${p}" must be camelCase`);
    const ref = s['x-ref'];
    if (ref && ref.entity !== 'organisation' && !knownEntities.has(ref.entity))
      problems.push(`${name}.${p}: x-ref to unknown entity "${ref.entity}"`);
  }
  try {
    createAjv().compile(eff);
  } catch (e) {
    problems.push(`${name}: ${(e as Error).message}`);
  }
  return problems;
}

/** Two schemas claiming one page key (each key is one console page and one menu entry). */
export function pageKeyProblems(files: readonly SchemaFile[]): string[] {
  const owners = new Map<string, string>();
  const problems: string[] = [];
  for (const f of files) {
    const key = f.schema['x-entity'].page?.key;
    if (!key) continue;
    if (owners.has(key)) problems.push(`${f.name}: x-entity.page.key "${key}" is also ${owners.get(key)}'s`);
    owners.set(key, f.name);
  }
  return problems;
}
