import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { OpsAccess } from '../http/ops-access.js';
import { indexPages } from './preload.js';
import { sourceMapsDir } from './source-maps.js';

const NOT_SPA = /^\/(api|auth|socket\.io|uploads)(\/|$)|^\/(healthz|readyz|metrics)$/;

/**
 * Serves dist/web, and index.html for every other GET so the web app can choose the screen by path.
 * The build writes a brotli and a gzip copy next to each text file (precompress.ts): the copy the
 * request's Accept-Encoding prefers is sent, with its Content-Encoding, the original's Content-Type
 * and `Vary: Accept-Encoding`; a client that accepts neither gets the original. index.html carries,
 * per path, the preloads of the screen's code and first API reads (preload.ts). Source maps are not
 * in the folder (source-maps.ts); `sourceMaps` serves them from beside it to those it lets in.
 */
export async function webRoutes(app: FastifyInstance, opts: { distDir: string; sourceMaps?: OpsAccess | null }): Promise<void> {
  const index = path.join(opts.distDir, 'index.html');
  if (!existsSync(index)) {
    app.log.warn(`No web bundle at ${opts.distDir}: run "npm run build".`);
    return;
  }
  const pages = indexPages(opts.distDir);
  await app.register(fastifyStatic, {
    root: opts.distDir,
    wildcard: false,
    index: false,
    preCompressed: true,
    // The copies are reached through their original's path only, never by their own.
    globIgnore: ['**/*.br', '**/*.gz'],
    // Hashed assets never change; everything else is revalidated. A source map (served to the
    // operators only) is never stored on the way, where a shared cache could hand it to anyone.
    setHeaders: (res, filePath) => {
      if (filePath.endsWith('.map')) res.header('Cache-Control', 'private, no-store');
      else res.header('Cache-Control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  // SERVE_SOURCE_MAPS: the maps kept beside the build (source-maps.ts), to the operators only.
  if (opts.sourceMaps) {
    const mapsDir = path.join(sourceMapsDir(opts.distDir), 'assets');
    app.get<{ Params: { file: string } }>('/assets/:file', { onRequest: opts.sourceMaps.guard, schema: { hide: true } }, async (req, reply) => {
      const { file } = req.params;
      if (!/^[\w.-]+\.map$/.test(file) || !existsSync(path.join(mapsDir, file))) return reply.callNotFound();
      return reply.sendFile(file, mapsDir);
    });
  }
  app.get('/*', { schema: { hide: true } }, async (req, reply) => {
    // Files that exist have their own routes (wildcard: false); a missing asset is a 404, not the app.
    const url = req.url.split('?')[0] ?? '/';
    if (NOT_SPA.test(url) || /\.[a-z0-9]+$/i.test(url)) return reply.callNotFound();
    const page = pages.render(url, req.headers['accept-encoding']);
    reply.header('Cache-Control', 'no-cache').header('Vary', 'Accept-Encoding').type('text/html; charset=utf-8');
    if (page.encoding !== 'identity') reply.header('Content-Encoding', page.encoding);
    return reply.send(page.body);
  });
}
