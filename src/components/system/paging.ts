import type { SortOrder } from 'antd/es/table/interface';
import type { Page, PagingBody } from '../../services/passport';

/** What ProTable hands its `request`: the search form's values plus the pager's. */
export type TableParams = Record<string, unknown> & { current?: number; pageSize?: number };

/** Search values as criteria: pager keys dropped, text trimmed, empty values left out. */
export function criteriaOf(params: TableParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) {
    if (k === 'current' || k === 'pageSize' || k === '_timestamp') continue;
    const value = typeof v === 'string' ? v.trim() : v;
    if (value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)) continue;
    out[k] = value;
  }
  return out;
}

/** The paging body of SPEC.md §3 for a table's search, sorter and pager (pages start at 1). */
export function pagingBody(params: TableParams, sort: Record<string, SortOrder> = {}, fixed: Record<string, unknown> = {}): PagingBody {
  const sorted = Object.entries(sort).find(([, dir]) => dir);
  return {
    criteria: { ...criteriaOf(params), ...fixed },
    ...(sorted ? { order: { property: sorted[0], direction: sorted[1] === 'descend' ? 'DESC' : 'ASC' } } : {}),
    pageIndex: Math.max(1, params.current ?? 1),
    pageSize: params.pageSize ?? 20,
  };
}

export interface TableAnswer<T> {
  data: T[];
  total: number;
  success: boolean;
}

/**
 * A ProTable `request` over one of the paged `…/query` calls. A failed call was already shown by
 * the request client (SPEC.md §8), so the table just comes back empty rather than throwing.
 */
export function tableRequest<T>(query: (body: PagingBody) => Promise<Page<T>>, fixed: Record<string, unknown> = {}) {
  return async (params: TableParams, sort: Record<string, SortOrder> = {}): Promise<TableAnswer<T>> => {
    try {
      const page = await query(pagingBody(params, sort, fixed));
      return { data: page.data, total: page.total, success: true };
    } catch {
      return { data: [], total: 0, success: false };
    }
  };
}
