import { CRUD_OPERATIONS } from '../../schemas/kit/entity';
import { parseRoute } from '../../server/platform/crud/routeSpec';
import { HEADER } from './header';
import type { SchemaFile } from './readSchemas';

const OPERATIONS = CRUD_OPERATIONS;

/**
 * `mock/api.generated.ts`: Umi mock routes (`npm run dev:mock`) for every route every entity schema
 * declares, each bound to the runtime (mock/runtime/: the server's app over an in-memory database),
 * plus the passport routes the console shell needs and a catch-all for every other /api route.
 */
export function mockFile(files: SchemaFile[]): string {
  const lines = [
    HEADER('schemas/*.schema.json'),
    `import { entities } from '../schemas/generated/registry';`,
    `import { demoFixtures } from '../server/seed/fixtures';`,
    `import { createMockServer, type MockServer } from './runtime/server';`,
    `import type { MockRoutes } from './runtime/umi';`,
    '',
    `/** The routes of the server, answered by \`api\` (key order is match order). */`,
    `export function mockRoutes(api: MockServer): MockRoutes {`,
    `  return {`,
    `    ...api.passportRoutes,`,
  ];
  const routes = files.flatMap((f) =>
    OPERATIONS.flatMap((op) =>
      (f.schema['x-entity'].routes[op] ?? []).map((r) => [parseRoute(r).join(' '), `api.entity('${f.name}', '${op}')`] as const),
    ),
  );
  // Umi takes the first key that matches; the server's router prefers a static segment to a
  // parameter (GET …/options before GET …/:id), so static paths go first.
  const parametric = (key: string) => key.includes('/:');
  for (const [key, handler] of [...routes.filter(([k]) => !parametric(k)), ...routes.filter(([k]) => parametric(k))]) {
    lines.push(`    '${key}': ${handler},`);
  }
  lines.push(
    `    ...api.fallbackRoutes,`,
    `  };`,
    `}`,
    '',
    `export default mockRoutes(createMockServer({ entities, fixtures: demoFixtures, adminPassword: process.env.MOCK_ADMIN_PASSWORD || undefined }));`,
  );
  return lines.join('\n') + '\n';
}
