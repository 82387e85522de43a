import type { EntityName } from '../../schemas/generated/registry';
import type { DemoFixtures } from './fixtures';

/**
 * The demo entity rows in insertion order (referenced rows first), with relations still by natural
 * key: the database seed and the Umi mock each give ids their own way and resolve `refs` through
 * the keys, so the one place that knows how fixtures relate is here.
 */
export interface FixtureRow {
  entity: EntityName;
  /** Natural key other rows' `refs` name this row by. */
  key: string;
  /** Organisation code the row belongs to. */
  org: string;
  /** Stored properties (camelCase), without orgId and relation ids. */
  values: Record<string, unknown>;
  /** Relation property (e.g. brandId) → key of the referenced row. */
  refs: Record<string, string>;
}

export function fixtureRows(fx: DemoFixtures): FixtureRow[] {
  const rows: FixtureRow[] = [];
  const plain = (entity: EntityName, key: (v: Record<string, unknown>, org: string) => string, list: Array<{ org: string }>) => {
    for (const { org, ...values } of list) rows.push({ entity, key: key(values, org), org, values, refs: {} });
  };
  plain('vehicleBrand', (v, org) => `brand:${org}:${v.name}`, fx.brands);
  plain('fuelType', (v, org) => `fuel:${org}:${v.name}`, fx.fuelTypes);
  plain('terminal', (v) => `terminal:${v.terminalNo}`, fx.terminals);
  plain('driver', (v, org) => `driver:${org}:${v.name}`, fx.drivers);
  // Brands and fuel types are kept by the client organisation above each team.
  const clientOf = (code: string) => fx.organisations.find((o) => o.code === code)?.parent ?? code;
  for (const { org, brand, fuelType, driver, terminalNo, ...values } of fx.vehicles) {
    const refs: Record<string, string> = {};
    if (brand) refs.brandId = `brand:${clientOf(org)}:${brand}`;
    if (fuelType) refs.fuelTypeId = `fuel:${clientOf(org)}:${fuelType}`;
    if (terminalNo) refs.terminalId = `terminal:${terminalNo}`;
    if (driver) refs.driverId = `driver:${org}:${driver}`;
    rows.push({ entity: 'vehicle', key: `vehicle:${org}:${values.licence}`, org, values, refs });
  }
  return rows;
}
