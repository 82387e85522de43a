import { columnOf, effectiveSchema, storedProperties, type PropertySchema } from '../../schemas/kit/entity';
import { HEADER } from './header';
import type { SchemaFile } from './readSchemas';

const baseType = (p: PropertySchema) => (Array.isArray(p.type) ? p.type.find((t) => t !== 'null') : p.type);

/** The column's TypeScript type as the database driver returns it (DATE stays text, see platform/db/database.ts). */
function columnType(p: PropertySchema): string {
  switch (baseType(p)) {
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
    case 'object':
      return 'unknown'; // jsonb: written as JSON text, read back parsed
    default:
      return p.format === 'date-time' ? 'Timestamp' : 'string';
  }
}

const tableTypeName = (entity: string) => `${entity[0].toUpperCase()}${entity.slice(1)}Table`;

/**
 * Kysely table types of the schema entities (`server/platform/db/entityTables.generated.ts`), which
 * `platform/db/tables.ts` merges with the hand-written tables into the one `DB` type.
 */
export function tablesFile(files: SchemaFile[]): string {
  const out = [
    HEADER('schemas/*.schema.json'),
    `import type { ColumnType, Generated } from 'kysely';`,
    '',
    `/** timestamptz: read as a Date, written as a Date or ISO text. */`,
    `type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;`,
    '',
    `/** The standard columns every entity table has. */`,
    `export interface EntityRow {`,
    `  id: Generated<number>;`,
    `  created_at: Generated<Date>;`,
    `  updated_at: Generated<Date>;`,
    `}`,
  ];
  const standard = new Set(['id', 'createdAt', 'updatedAt']);
  for (const f of files) {
    const schema = effectiveSchema(f.schema);
    const required = new Set(schema.required ?? []);
    const cols = storedProperties(schema)
      .filter(([name]) => !standard.has(name))
      .map(([name, p]) => {
        const col = columnOf(name, p);
        const notNull = required.has(name) || name === 'orgId';
        const t = columnType(p) + (notNull ? '' : ' | null');
        return `${col}: ${p.default !== undefined ? `Generated<${t}>` : t};`;
      });
    // One line a table: the tables share many columns, and a column a line would repeat them in long runs.
    out.push(
      '',
      `/** Table \`${schema['x-entity'].table}\` of schemas/${f.name}.schema.json. */`,
      `export interface ${tableTypeName(f.name)} extends EntityRow { ${cols.join(' ')} }`,
    );
  }
  out.push('', `export interface EntityTables {`, ...files.map((f) => `  ${f.schema['x-entity'].table}: ${tableTypeName(f.name)};`), `}`);
  return out.join('\n') + '\n';
}
