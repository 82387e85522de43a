import { labelPreviewValidatorsFile } from './labelPreviewValidatorsFile';
import { policyParamsValidatorsFile } from './policyParamsValidatorsFile';
import fs from 'node:fs';
import path from 'node:path';
import { compile } from 'json-schema-to-typescript';
import { effectiveSchema, servedByCrud } from '../../schemas/kit/entity';
import { LANGUAGES, type Language } from '../../schemas/kit/i18n';
import { checkSchema, pageKeyProblems } from './checkSchema';
import { HEADER } from './header';
import { mockFile } from './mockFile';
import { pagesFile } from './pagesFile';
import type { ProjectPaths } from './paths';
import { readSchemas, type SchemaFile } from './readSchemas';
import { createTableSql, migrationMarker } from './sql';
import { tablesFile } from './tablesFile';
import { validatorsFile } from './validatorsFile';

const ident = (s: string) => s.replace(/[^A-Za-z0-9_]/g, '_');

async function typesFile(files: SchemaFile[]): Promise<string> {
  const parts: string[] = [HEADER('schemas/*.schema.json'), '/* eslint-disable */'];
  for (const f of files) {
    const eff = effectiveSchema(f.schema);
    // The tool ignores x- keywords; readOnly fields stay in the type (they are in every response).
    const ts = await compile(JSON.parse(JSON.stringify(eff)), f.schema.title ?? f.name, {
      bannerComment: '',
      additionalProperties: false,
      declareExternallyReferenced: true,
      format: true,
    });
    parts.push(ts.trim());
  }
  parts.push(`export interface EntityTypes {\n${files.map((f) => `  ${f.name}: ${f.schema.title ?? f.name};`).join('\n')}\n}`);
  return parts.join('\n\n') + '\n';
}

function registryFile(all: SchemaFile[]): string {
  const files = all.filter((f) => servedByCrud(f.schema));
  const hand = all.filter((f) => !servedByCrud(f.schema));
  const lines = [
    HEADER('schemas/*.schema.json'),
    `import { effectiveSchema, type EntitySchema } from '../kit/entity';`,
    ...all.map((f) => `import ${ident(f.name)} from '../${f.name}.schema.json';`),
    '',
    `/** The entities the generic CRUD serves. */`,
    `export const entityNames = [${files.map((f) => `'${f.name}'`).join(', ')}] as const;`,
    `export type EntityName = (typeof entityNames)[number];`,
    '',
    `/** The entities whose routes are hand-written (\`x-entity.handWritten\`): schema-described, never served by the CRUD. */`,
    `export const handWrittenNames = [${hand.map((f) => `'${f.name}'`).join(', ')}] as const;`,
    `export type HandWrittenName = (typeof handWrittenNames)[number];`,
    '',
    `/** Every schema's name. */`,
    `export type SchemaName = EntityName | HandWrittenName;`,
    '',
    `/** The schema files as written. */`,
    `export const entityFiles: Record<EntityName, EntitySchema> = {`,
    ...files.map((f) => `  ${f.name}: ${ident(f.name)} as unknown as EntitySchema,`),
    `};`,
    '',
    `/** The schemas as the server and console use them (standard properties added). */`,
    `export const entities = Object.fromEntries(`,
    `  entityNames.map((n) => [n, effectiveSchema(entityFiles[n])]),`,
    `) as Record<EntityName, EntitySchema>;`,
    '',
    `/** The hand-written entities' schemas as used (standard properties added). */`,
    `export const handWrittenEntities: Record<HandWrittenName, EntitySchema> = {`,
    ...hand.map((f) => `  ${f.name}: effectiveSchema(${ident(f.name)} as unknown as EntitySchema),`),
    `};`,
    '',
    `/** Every schema, served or hand-written (types, validators, labels, pages). */`,
    `export const schemaEntities: Record<SchemaName, EntitySchema> = { ...entities, ...handWrittenEntities };`,
  ];
  return lines.join('\n') + '\n';
}

/**
 * One language's locale files (`locales.<language>.ts`): a module of its own, so the console loads
 * only the language it shows (the others on a switch) while the server takes all four.
 */
function languageLocalesFile(lang: Language, files: SchemaFile[]): string {
  const lines = [HEADER(`schemas/locales/${lang}/**/*.json`), `import type { LocaleSource } from './locales';`];
  lines.push(`import messages from '../locales/${lang}/messages.json';`);
  for (const f of files) lines.push(`import ${ident(f.name)} from '../locales/${lang}/entities/${f.name}.json';`);
  lines.push('', `export const localeSource: LocaleSource = {`, `  messages,`, `  entities: {`);
  for (const f of files) lines.push(`    ${f.name}: ${ident(f.name)},`);
  lines.push(`  },`, `};`);
  return lines.join('\n') + '\n';
}

function localesFile(): string {
  const lines = [HEADER('schemas/locales/<language>/**/*.json'), `import type { Language } from '../kit/i18n';`];
  for (const lang of LANGUAGES) lines.push(`import { localeSource as ${ident(lang)} } from './locales.${lang}';`);
  lines.push('', `export interface LocaleSource {\n  messages: unknown;\n  entities: Record<string, unknown>;\n}`, '');
  lines.push(`export const localeSources: Record<Language, LocaleSource> = {`);
  for (const lang of LANGUAGES) lines.push(`  '${lang}': ${ident(lang)},`);
  lines.push(`};`);
  return lines.join('\n') + '\n';
}

/** The generated files (path → content). Pure: writes nothing, so a test can compare with disk. */
export async function generatedFiles(paths: ProjectPaths): Promise<Map<string, string>> {
  const files = readSchemas(paths);
  const known = new Set(files.map((f) => f.name));
  const problems = [...files.flatMap((f) => checkSchema(f.name, f.schema, known)), ...pageKeyProblems(files)];
  if (problems.length) throw new Error('Schema problems:\n' + problems.join('\n'));
  return new Map([
    [path.join(paths.generated, 'types.ts'), await typesFile(files)],
    [path.join(paths.generated, 'registry.ts'), registryFile(files)],
    [path.join(paths.generated, 'locales.ts'), localesFile()],
    ...LANGUAGES.map((lang): [string, string] => [path.join(paths.generated, `locales.${lang}.ts`), languageLocalesFile(lang, files)]),
    [path.join(paths.generated, 'validators.ts'), validatorsFile(files)],
    [path.join(paths.generated, 'policyParamsValidators.ts'), policyParamsValidatorsFile()],
    [path.join(paths.generated, 'labelPreviewValidators.ts'), labelPreviewValidatorsFile(files)],
    // Hand-written routes have their own mock handlers and pages.
    [path.join(paths.mock, 'api.generated.ts'), mockFile(files.filter((f) => servedByCrud(f.schema)))],
    [path.join(paths.pages, 'schemaPages.generated.ts'), pagesFile(files.filter((f) => servedByCrud(f.schema)))],
    [paths.tables, tablesFile(files.filter((f) => servedByCrud(f.schema)))],
  ]);
}

/** Migrations to scaffold for entities that have none yet (marker line `-- entity: <name>`). */
export function missingMigrations(paths: ProjectPaths, now = new Date()): Map<string, string> {
  const files = readSchemas(paths);
  const existing = fs.existsSync(paths.migrations)
    ? fs.readdirSync(paths.migrations).map((f) => fs.readFileSync(path.join(paths.migrations, f), 'utf8'))
    : [];
  const all = Object.fromEntries(files.map((f) => [f.name, f.schema]));
  const out = new Map<string, string>();
  const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  // Referenced entities first, so foreign keys point at tables that exist.
  const order = topoSort(files);
  order.forEach((f, i) => {
    // A hand-written entity's table is the passport's own migration's.
    if (!servedByCrud(f.schema)) return;
    if (existing.some((sql) => sql.split('\n').includes(migrationMarker(f.name)))) return;
    const file = path.join(paths.migrations, `${stamp}${String(i).padStart(2, '0')}_create_${f.schema['x-entity'].table}.sql`);
    out.set(file, createTableSql(f.schema, all));
  });
  return out;
}

/**
 * Label files for entities that have none yet in a language: every key present (so the console and
 * the completeness test work at once), holding the property names until an analyst writes labels.
 */
export function missingLocaleStubs(paths: ProjectPaths): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of readSchemas(paths)) {
    const eff = effectiveSchema(f.schema);
    const stub: { title: string; fields: Record<string, string>; enums?: Record<string, Record<string, string>> } = {
      title: f.schema.title ?? f.name,
      fields: Object.fromEntries(Object.keys(f.schema.properties).map((p) => [p, p])),
    };
    for (const p of Object.values(f.schema.properties)) {
      const ref = p['x-ref'];
      if (ref) stub.fields[ref.as] = ref.as;
    }
    const enums = Object.entries(eff.properties).filter(([, p]) => p.enum);
    if (enums.length)
      stub.enums = Object.fromEntries(
        enums.map(([n, p]) => [n, Object.fromEntries(p.enum!.filter((v) => v !== null).map((v) => [String(v), String(v)]))]),
      );
    for (const lang of LANGUAGES) {
      const file = path.join(paths.locales, lang, 'entities', `${f.name}.json`);
      if (!fs.existsSync(file)) out.set(file, JSON.stringify(stub, null, 2) + '\n');
    }
  }
  return out;
}

function topoSort(files: SchemaFile[]): SchemaFile[] {
  const byName = new Map(files.map((f) => [f.name, f]));
  const done = new Set<string>();
  const out: SchemaFile[] = [];
  const visit = (f: SchemaFile, stack: Set<string>) => {
    if (done.has(f.name) || stack.has(f.name)) return;
    stack.add(f.name);
    for (const p of Object.values(f.schema.properties)) {
      const dep = p['x-ref'] && byName.get(p['x-ref'].entity);
      if (dep) visit(dep, stack);
    }
    done.add(f.name);
    out.push(f);
  };
  files.forEach((f) => visit(f, new Set()));
  return out;
}

export function writeFiles(files: Map<string, string>): string[] {
  const written: string[] = [];
  for (const [file, content] of files) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === content) continue;
    fs.writeFileSync(file, content);
    written.push(file);
  }
  return written;
}

/** Everything `npm run gen` writes: label stubs first (the locale index imports them), migrations, generated files. */
export async function writeAll(paths: ProjectPaths): Promise<string[]> {
  return [...writeFiles(missingLocaleStubs(paths)), ...writeFiles(missingMigrations(paths)), ...writeFiles(await generatedFiles(paths))];
}
