import fs from 'node:fs';
import path from 'node:path';
import type { EntitySchema } from '../../schemas/kit/entity';
import type { ProjectPaths } from './paths';

export interface SchemaFile {
  /** Entity name, which is also the file's base name. */
  name: string;
  file: string;
  schema: EntitySchema;
}

/** Every `schemas/<entity>.schema.json`, sorted by name so generated output is stable. */
export function readSchemas(paths: ProjectPaths): SchemaFile[] {
  return fs
    .readdirSync(paths.schemas)
    .filter((f) => f.endsWith('.schema.json'))
    .sort()
    .map((f) => {
      const file = path.join(paths.schemas, f);
      const schema = JSON.parse(fs.readFileSync(file, 'utf8')) as EntitySchema;
      return { name: f.replace(/\.schema\.json$/, ''), file, schema };
    });
}
