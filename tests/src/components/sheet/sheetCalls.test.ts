import { entities } from '../../../../schemas/generated/registry';
import type { EntitySchema } from '../../../../schemas/kit/entity';
import { EXPORT_MAX_IDS, exportBody, sheetCall, sheetFeatures } from '../../../../src/components/sheet/sheetCalls';

describe('sheet features of a schema', () => {
  it('offers import, renewal and export with their routes and permission codes (defaults as schemas/README.md says)', () => {
    expect(sheetFeatures(entities.terminal)).toEqual({
      // terminal declares no export code: export defaults to read (NONE)
      export: { method: 'POST', url: '/vehicle/terminal/export', authority: 'NONE' },
      import: {
        kind: 'import',
        template: { method: 'GET', url: '/vehicle/terminal/template', authority: 'NONE' },
        validate: { method: 'POST', url: '/vehicle/terminal/importValidate', authority: 'terminal-import' },
        apply: { method: 'POST', url: '/vehicle/terminal/import', authority: 'terminal-import' },
        code: 'terminal-import',
      },
      renew: {
        kind: 'renew',
        template: { method: 'GET', url: '/vehicle/terminal/template?kind=renew', authority: 'NONE' },
        validate: { method: 'POST', url: '/vehicle/terminal/renewValidate', authority: 'terminal-renew' },
        apply: { method: 'POST', url: '/vehicle/terminal/renew', authority: 'terminal-renew' },
        code: 'terminal-renew',
      },
    });
    const vehicle = sheetFeatures(entities.vehicle);
    expect(vehicle.export?.authority).toBe('vehicle-export');
    expect(vehicle.import?.code).toBe('vehicle-import');
    expect(vehicle.renew).toBeUndefined();
  });

  it('offers nothing the schema does not declare', () => {
    const bare: EntitySchema = {
      ...entities.vehicleBrand,
      'x-entity': { ...entities.vehicleBrand['x-entity'], routes: { query: ['POST /vehicle/vehicleBrand/query'] } },
    };
    expect(sheetFeatures(bare)).toEqual({});
    // An import needs its template, its check and its store; a renewal also the schema's `renew`.
    const noCheck: EntitySchema = {
      ...entities.driver,
      'x-entity': { ...entities.driver['x-entity'], routes: { ...entities.driver['x-entity'].routes, importValidate: undefined } },
    };
    expect(sheetFeatures(noCheck).import).toBeUndefined();
    const noRenewSpec: EntitySchema = { ...entities.terminal, 'x-entity': { ...entities.terminal['x-entity'], renew: undefined } };
    expect(sheetFeatures(noRenewSpec).renew).toBeUndefined();
    // Falls back to create for import when no import code is given.
    const defaults: EntitySchema = {
      ...entities.driver,
      'x-entity': {
        ...entities.driver['x-entity'],
        permissions: { read: 'NONE', create: 'driver-add', update: 'driver-edit', remove: 'driver-remove' },
      },
    };
    expect(sheetCall(defaults, 'import')?.authority).toBe('driver-add');
  });
});

describe('export body', () => {
  const q = { criteria: { keyword: '沪A' }, order: { property: 'licence', direction: 'DESC' as const }, rowIds: [5, 3, 9] };

  it('sends the list criteria and order, and the ids on screen for the current page', () => {
    expect(exportBody('all', q)).toEqual({ criteria: { keyword: '沪A' }, order: { property: 'licence', direction: 'DESC' } });
    expect(exportBody('current', q)).toEqual({
      criteria: { keyword: '沪A' },
      order: { property: 'licence', direction: 'DESC' },
      ids: [5, 3, 9],
    });
    expect(exportBody('all', { ...q, order: undefined })).toEqual({ criteria: { keyword: '沪A' } });
  });

  it('never sends more ids than the server takes', () => {
    const many = Array.from({ length: EXPORT_MAX_IDS + 5 }, (_, i) => i + 1);
    expect((exportBody('current', { ...q, rowIds: many }).ids as number[]).length).toBe(EXPORT_MAX_IDS);
  });
});
