import path from 'node:path';

/** Where the generators read and write, relative to a project root (a temp copy in tests). */
export function projectPaths(root: string) {
  return {
    root,
    schemas: path.join(root, 'schemas'),
    locales: path.join(root, 'schemas', 'locales'),
    generated: path.join(root, 'schemas', 'generated'),
    migrations: path.join(root, 'server', 'platform', 'db', 'migrations'),
    /** Kysely table types of the entities, merged into the server's DB type. */
    tables: path.join(root, 'server', 'platform', 'db', 'entityTables.generated.ts'),
    mock: path.join(root, 'mock'),
    pages: path.join(root, 'src', 'pages'),
  };
}
export type ProjectPaths = ReturnType<typeof projectPaths>;
