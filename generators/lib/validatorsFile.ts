import Ajv, { _, type Format } from 'ajv';
import standaloneCode from 'ajv/dist/standalone';
import { fullFormats } from 'ajv-formats/dist/formats';
import { AJV_OPTIONS } from '../../schemas/kit/ajv';
import { createBodySchema, effectiveSchema, updateBodySchema } from '../../schemas/kit/entity';
import { customFormats } from '../../schemas/kit/formats';
import { notBeforeKeyword } from '../../schemas/kit/dateOrder';
import { X_KEYWORDS } from '../../schemas/kit/keywords';
import { HEADER } from './header';
import type { SchemaFile } from './readSchemas';

/**
 * Every format as an object definition, so ajv's generated code reaches each one through the
 * `formats` table the generated module builds from the same two sources (ajv-formats and
 * schemas/kit/formats.ts) instead of inlining regular expressions or failing on functions.
 * The generated module carries the same mapping as JavaScript (FORMATS_PRELUDE below).
 */
export function formatDefinitions(): Record<string, Format> {
  const all: Record<string, unknown> = { ...fullFormats, ...customFormats };
  return Object.fromEntries(
    Object.entries(all).map(
      ([name, f]) => [name, f instanceof RegExp || typeof f === 'function' ? { type: 'string', validate: f } : f] as [string, Format],
    ),
  );
}

const FORMATS_PRELUDE = `const formats = Object.fromEntries(
  Object.entries({ ...fullFormats, ...customFormats }).map(([name, f]) => [name, f instanceof RegExp || typeof f === 'function' ? { type: 'string', validate: f } : f]),
);`;

const exportName = (entity: string, body: 'create' | 'update') => `${entity}_${body}`;

/**
 * Precompiled ajv validators (ajv's standalone code) of every entity's create and update body, with
 * the server's ajv options: the console runs them under a CSP that forbids compiling at run time.
 * Runtime helpers the code `require`s become imports, so the module is plain ESM for the bundler.
 */
export function validatorsFile(files: SchemaFile[]): string {
  const ajv = new Ajv({ ...AJV_OPTIONS, code: { source: true, esm: true, formats: _`formats` } });
  for (const [name, def] of Object.entries(formatDefinitions())) ajv.addFormat(name, def);
  ajv.addVocabulary([...X_KEYWORDS]);
  ajv.addKeyword(notBeforeKeyword);
  const refs: Record<string, string> = {};
  for (const f of files) {
    const eff = effectiveSchema(f.schema);
    for (const [body, schema] of [
      ['create', createBodySchema(eff)],
      ['update', updateBodySchema(eff)],
    ] as const) {
      const id = `${f.name}/${body}`;
      ajv.addSchema(schema, id);
      refs[exportName(f.name, body)] = id;
    }
  }
  const imports = new Map<string, string>();
  const code = standaloneCode(ajv, refs)
    .replace(/^"use strict";/, '')
    .replace(/require\("([^"]+)"\)\.default/g, (_m, mod: string) => {
      if (!imports.has(mod)) imports.set(mod, `runtime${imports.size}`);
      return imports.get(mod)!;
    });
  if (/\brequire\(/.test(code)) throw new Error('validators: the standalone code requires a module this generator does not import');
  const lines = [
    HEADER('schemas/*.schema.json (createBodySchema/updateBodySchema, schemas/kit/ajv.ts options)'),
    "// @ts-nocheck -- ajv's standalone code is untyped JavaScript; `bodyValidators` below is the typed entry point.",
    '/* eslint-disable */',
    `import type { ValidateFunction } from 'ajv';`,
    `import { fullFormats } from 'ajv-formats/dist/formats';`,
    `import { customFormats } from '../kit/formats';`,
    `import type { SchemaName } from './registry';`,
    ...[...imports].map(([mod, id]) => `import ${id} from '${mod}';`),
    '',
    FORMATS_PRELUDE,
    code.trim(),
    '',
    `/** The create and update body validators of each entity (errors carry parentSchema: verbose). */`,
    `export const bodyValidators: Record<SchemaName, { create: ValidateFunction; update: ValidateFunction }> = {`,
    ...files.map((f) => `  ${f.name}: { create: ${exportName(f.name, 'create')}, update: ${exportName(f.name, 'update')} },`),
    `};`,
  ];
  return lines.join('\n') + '\n';
}
