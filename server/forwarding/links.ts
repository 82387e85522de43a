/**
 * The configured links, read from `forward_link`: each enabled row with the organisation path it
 * covers, and its settings as a link takes them. A row's `key` changes when any setting does, so
 * a reload restarts exactly the links that changed.
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../platform/db/tables';
import type { Jt809Cipher, Jt809Edition } from './jt809';

export interface LinkRow {
  id: number;
  name: string;
  protocol: 'jt809' | 'jt808';
  orgPath: string;
  vehicleIds: number[] | null;
  host: string;
  port: number;
  backlogLimit: number;
  edition: Jt809Edition;
  accessCode: number;
  userId: number;
  password: string;
  version: [number, number, number];
  cipher: Jt809Cipher | undefined;
  encryptKey: number | undefined;
  downLinkIp: string;
  downLinkPort: number;
  /** Every setting, for telling a changed row. */
  key: string;
}

function version(text: string): [number, number, number] {
  const parts = text.split('.').map(Number);
  return [0, 1, 2].map((i) => (Number.isInteger(parts[i]) && parts[i] >= 0 && parts[i] <= 255 ? parts[i] : 0)) as [number, number, number];
}

export async function loadLinks(db: Kysely<DB>): Promise<LinkRow[]> {
  const r = await sql<{
    id: number;
    name: string;
    protocol: 'jt809' | 'jt808';
    path: string;
    vehicle_ids: number[] | null;
    host: string;
    port: number;
    backlog_limit: number;
    edition: number;
    access_code: string | null;
    user_id: string | null;
    password: string | null;
    version: string;
    m1: string | null;
    ia1: string | null;
    ic1: string | null;
    encrypt_key: string | null;
    down_link_ip: string | null;
    down_link_port: number | null;
  }>`SELECT f.*, o.path FROM forward_link f JOIN organisation o ON o.id = f.org_id WHERE f.enabled ORDER BY f.id`.execute(db);
  return r.rows.map((x) => {
    const row: Omit<LinkRow, 'key'> = {
      id: x.id,
      name: x.name,
      protocol: x.protocol,
      orgPath: x.path,
      vehicleIds: x.vehicle_ids,
      host: x.host,
      port: x.port,
      backlogLimit: x.backlog_limit,
      edition: x.edition === 2011 ? 2011 : 2019,
      accessCode: Number(x.access_code ?? 0),
      userId: Number(x.user_id ?? 0),
      password: x.password ?? '',
      version: version(x.version),
      cipher: x.m1 !== null && x.ia1 !== null && x.ic1 !== null ? { m1: Number(x.m1), ia1: Number(x.ia1), ic1: Number(x.ic1) } : undefined,
      encryptKey: x.encrypt_key === null ? undefined : Number(x.encrypt_key),
      downLinkIp: x.down_link_ip ?? '',
      downLinkPort: x.down_link_port ?? 0,
    };
    return { ...row, key: JSON.stringify(row) };
  });
}

/** Whether a link covers a vehicle of an organisation path. */
export const covers = (l: Pick<LinkRow, 'orgPath' | 'vehicleIds'>, vehicleId: number, orgPath: string): boolean =>
  orgPath.startsWith(l.orgPath) && (!l.vehicleIds || l.vehicleIds.includes(vehicleId));
