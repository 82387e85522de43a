import { queryIndexSql } from '../../generators/lib/indexSql';
import { createTableSql } from '../../generators/lib/sql';
import { entityFiles } from '../../schemas/generated/registry';
import type { EntitySchema } from '../../schemas/kit/entity';

const parkingLot = (keyword: string[]): EntitySchema => ({
  type: 'object',
  'x-entity': {
    name: 'parkingLot',
    table: 'parking_lot',
    orgScoped: true,
    permissions: { read: 'NONE', create: 'a', update: 'b', remove: 'c' },
    routes: {},
    keyword,
  },
  required: ['name'],
  properties: {
    name: { type: 'string', 'x-ui': { search: 'like', sort: true } },
    code: { type: 'integer', 'x-ui': { sort: true } },
    note: { type: 'string' },
    openedOn: { type: 'string', format: 'date', 'x-ui': { search: 'range', sort: true } },
    terminalId: { type: ['integer', 'null'], 'x-ref': { entity: 'terminal', label: 'terminalNo', as: 'terminalNo' } },
  },
});
const all = { ...entityFiles, parkingLot: parkingLot([]) } as Record<string, EntitySchema>;

describe('query indexes derived from a schema', () => {
  it('index like-searched text columns with trigrams and sortable columns with (column, id)', () => {
    expect(queryIndexSql(parkingLot([]), all)).toEqual([
      'CREATE INDEX IF NOT EXISTS parking_lot_name_trgm ON parking_lot USING gin (name gin_trgm_ops);',
      'CREATE INDEX IF NOT EXISTS parking_lot_created_at_sort ON parking_lot (created_at, id);',
      'CREATE INDEX IF NOT EXISTS parking_lot_updated_at_sort ON parking_lot (updated_at, id);',
      'CREATE INDEX IF NOT EXISTS parking_lot_name_sort ON parking_lot (name, id);',
      'CREATE INDEX IF NOT EXISTS parking_lot_code_sort ON parking_lot (code, id);',
      'CREATE INDEX IF NOT EXISTS parking_lot_opened_on_sort ON parking_lot (opened_on, id);',
    ]);
  });

  it('index a keyword of several columns as the one document the query searches, and the labels it reaches', () => {
    const stmts = queryIndexSql(parkingLot(['name', 'code', 'note', 'terminalNo']), all);
    expect(stmts).toContain(
      `CREATE INDEX IF NOT EXISTS parking_lot_keyword_trgm ON parking_lot USING gin ((coalesce(name, '') || E'\\x1f' || coalesce(code::text, '') || E'\\x1f' || coalesce(note, '')) gin_trgm_ops);`,
    );
    expect(stmts).toContain('CREATE INDEX IF NOT EXISTS terminal_terminal_no_trgm ON terminal USING gin (terminal_no gin_trgm_ops);');
    // A keyword of one text column is served by that column's index: no second index.
    expect(queryIndexSql(parkingLot(['name']), all).filter((s) => s.includes('trgm'))).toEqual([
      'CREATE INDEX IF NOT EXISTS parking_lot_name_trgm ON parking_lot USING gin (name gin_trgm_ops);',
    ]);
  });

  it('go into the scaffolded migration of a new entity, after the extension they need', () => {
    const migration = createTableSql(parkingLot(['name', 'note']), all).split('\n');
    const ext = migration.indexOf('CREATE EXTENSION IF NOT EXISTS pg_trgm;');
    expect(ext).toBeGreaterThan(migration.findIndex((l) => l.startsWith('CREATE TABLE parking_lot')));
    expect(migration.findIndex((l) => l.includes('parking_lot_keyword_trgm'))).toBeGreaterThan(ext);
    expect(migration).toContain('CREATE INDEX IF NOT EXISTS parking_lot_opened_on_sort ON parking_lot (opened_on, id);');
  });
});
