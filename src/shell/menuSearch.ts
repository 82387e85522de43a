import Fuse from 'fuse.js';
import type { MenuRoute } from '../session/navigation';

/** Header search over menu titles (SPEC.md §9: threshold 0.4, weights title 0.7, path 0.3). */
export interface SearchEntry {
  path: string;
  /** Titles from the top-level menu down, e.g. "系统管理 > 角色管理". */
  title: string;
}

export const searchEntries = (routes: readonly MenuRoute[]): SearchEntry[] =>
  routes.filter((r) => !r.hidden && r.pageKey).map((r) => ({ path: r.path, title: r.breadcrumb.join(' > ') }));

export function menuSearch(entries: readonly SearchEntry[]): (query: string) => SearchEntry[] {
  const fuse = new Fuse(entries, {
    threshold: 0.4,
    shouldSort: true,
    minMatchCharLength: 1,
    keys: [
      { name: 'title', weight: 0.7 },
      { name: 'path', weight: 0.3 },
    ],
  });
  return (query) => (query.trim() ? fuse.search(query.trim()).map((r) => r.item) : []);
}
