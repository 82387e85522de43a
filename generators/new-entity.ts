import fs from 'node:fs';
import path from 'node:path';
import { writeAll } from './lib/generate';
import { projectPaths } from './lib/paths';

/** `npm run new-entity <camelName>`: scaffolds a schema, then its labels, migration and generated files. */
async function main() {
  const name = process.argv[2];
  if (!name || !/^[a-z][A-Za-z0-9]*$/.test(name)) {
    console.error('usage: npm run new-entity <camelCaseName>   e.g. npm run new-entity parkingLot');
    process.exit(2);
  }
  const paths = projectPaths(path.join(__dirname, '..'));
  const file = path.join(paths.schemas, `${name}.schema.json`);
  if (fs.existsSync(file)) {
    console.error(`${path.relative(paths.root, file)} already exists`);
    process.exit(1);
  }
  const table = name.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase());
  const title = name[0].toUpperCase() + name.slice(1);
  const schema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: name,
    title,
    description: `TODO: what a ${title} is, for whom.`,
    type: 'object',
    'x-entity': {
      name,
      table,
      orgScoped: true,
      // The console page and its menu entry; the first segment is the menu area (fleet, operation, system…).
      page: { key: `fleet/${name}`, icon: 'AppstoreOutlined' },
      permissions: { read: 'NONE', create: `${name}-add`, update: `${name}-edit`, remove: `${name}-remove` },
      routes: {
        create: [`POST /vehicle/${name}`],
        update: [`PUT /vehicle/${name}/{id}`],
        remove: [`DELETE /vehicle/${name}/{id}`],
        get: [`GET /vehicle/${name}/{id}`],
        query: [`POST /vehicle/${name}/query`],
        options: [`GET /vehicle/${name}/options`],
      },
      unique: [['orgId', 'name']],
      keyword: ['name'],
      defaultOrder: { property: 'name', direction: 'ASC' },
    },
    required: ['name'],
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 64, 'x-ui': { search: 'like', sort: true, order: 1 } },
      remark: { type: 'string', maxLength: 500, 'x-ui': { widget: 'textarea', column: false, order: 20 } },
    },
  };
  fs.writeFileSync(file, JSON.stringify(schema, null, 2) + '\n');
  const written = [file, ...(await writeAll(paths))];
  for (const f of written) console.log('wrote', path.relative(paths.root, f));
  console.log(
    `\nNext: edit ${path.relative(paths.root, file)} and its labels. Until the migration has run anywhere, delete it and run ` +
      '`npm run gen` to scaffold it again from the edited schema; afterwards, change the table with a new migration.',
  );
}

main().catch((e: Error) => {
  console.error(e.message);
  process.exit(1);
});
