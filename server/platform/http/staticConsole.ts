import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built console from `dir` (hashed assets cached for a year, index.html never), and
 * index.html for any other GET that is not /api, so client-side routes survive a reload.
 * @fastify/static resolves paths inside `root` only (encoded `..` and backslashes included).
 */
export async function serveConsole(app: FastifyInstance, dir: string): Promise<boolean> {
  if (!fs.existsSync(path.join(dir, 'index.html'))) return false;
  await app.register(fastifyStatic, {
    root: dir,
    wildcard: true,
    index: ['index.html'],
    dotfiles: 'deny',
    setHeaders: (res, file) => {
      res.header('Cache-Control', file.endsWith('.html') ? 'no-cache' : 'public, max-age=31536000, immutable');
    },
  });
  return true;
}
