import { pagingBodySchema } from '../platform/paging';
import { idParams } from '../platform/crud/routeSpec';
import type { PerApplication } from '../platform/http/fastifyTypes';

export { idParams } from '../platform/crud/routeSpec';

/** The options of `PUT …/:id`, the change of one record: its permission, labels, tag, summary and body schema. */
export const changeOptions = <const B extends object>(
  permission: string | PerApplication,
  labels: string,
  tag: string,
  summary: string,
  body: B,
) => ({
  config: { permission, labels },
  schema: { tags: [tag], summary, params: idParams, body },
});

export type { IdParams } from '../platform/crud/routeSpec';

/** The `:id` of a route whose params are `idParams`, registered on `typed(app)`. */
export const idOf = (req: { params: { id: number } }) => req.params.id;

/** The same action, guarded by the web code or its `-app-vehicle` variant (SPEC §6). */
export const perApp = (code: string) => ({ 'obd-web': code, 'vehicle-app': `${code}-app-vehicle` });

/** Strips undefined so an update sets only what the body carries. */
export function defined<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The paging body of SPEC §7 with a keyword and a few equality filters. */
export const pagingBody = (criteria: Record<string, unknown>, sortable: string[]) =>
  pagingBodySchema({ keyword: { type: ['string', 'null'], maxLength: 100 }, ...criteria }, sortable);

export { likePattern } from '../platform/crud/query';
export { listPage, ONE, pagingOf, sortBy, type Paging } from '../platform/paging';

export { noContent, successAnswer } from '../platform/crud/routeSpec';
