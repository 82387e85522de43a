import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { precompress } from './precompress';

/**
 * Serves the built console from `dir` (hashed assets cached for a year, index.html never), and
 * index.html for any other GET that is not /api, so client-side routes survive a reload.
 * @fastify/static resolves paths inside `root` only (encoded `..` and backslashes included).
 * Assets go out brotli- or gzip-compressed when the browser accepts it, from copies made once beside
 * them (the build makes them; any missing are made in the background, served raw until then).
 */
export async function serveConsole(app: FastifyInstance, dir: string): Promise<boolean> {
  if (!fs.existsSync(path.join(dir, 'index.html'))) return false;
  await app.register(fastifyStatic, {
    root: dir,
    wildcard: true,
    index: ['index.html'],
    dotfiles: 'deny',
    preCompressed: true,
    setHeaders: (res, file) => {
      // index.html.br is index.html: judged by the name without its encoding's extension.
      const logical = file.replace(/\.(?:br|gz|deflate)$/, '');
      res.header('Cache-Control', logical.endsWith('.html') ? 'no-cache' : 'public, max-age=31536000, immutable');
    },
  });
  // A folder the server may not write (a read-only image) is served raw: said once, not fatal.
  precompress(dir).catch((err: unknown) => app.log.warn({ err, dir }, 'console assets not precompressed; served uncompressed'));
  return true;
}
