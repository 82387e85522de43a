/** A menu or action of an application as the passport answers it (SPEC §3 resource tree item). */
export type ResourceKind = 'Menu' | 'Action';

export interface ResourceItem {
  id: number;
  application?: string;
  name: string;
  kind: ResourceKind;
  code: string;
  path: string | null;
  url: string | null;
  icon: string | null;
  sort: number;
  parentId: number | null;
  hidden: boolean;
  affix: boolean;
  noCache: boolean;
  activeMenu: string | null;
  children?: ResourceItem[];
}
