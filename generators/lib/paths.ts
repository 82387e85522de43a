import path from 'node:path';

/** Where the generators read and write, relative to a project root (a temp copy in tests). */
export function projectPaths(root: string) {
  return {
    root,
    schemas: path.join(root, 'schemas'),
    locales: path.join(root, 'schemas', 'locales'),
    generated: path.join(root, 'schemas', 'generated'),
    migrations: path.join(root, 'server', 'db', 'migrations'),
    mock: path.join(root, 'mock'),
    pages: path.join(root, 'src', 'pages'),
  };
}
export type ProjectPaths = ReturnType<typeof projectPaths>;
