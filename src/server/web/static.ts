import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { screenForPath } from '../../domain/screens.js';
import type { OpsAccess } from '../http/ops-access.js';
import { dataBlock, indexPages, initialDataUrls } from './preload.js';
import { sourceMapsDir } from './source-maps.js';

const NOT_SPA = /^\/(api|auth|socket\.io|uploads)(\/|$)|^\/(healthz|readyz|metrics)$/;

/**
 * Serves dist/web, and index.html for every other GET so the web app can choose the screen by path.
 * The build writes a brotli and a gzip copy next to each text file (precompress.ts): the copy the
 * request's Accept-Encoding prefers is sent, with its Content-Encoding, the original's Content-Type
 * and `Vary: Accept-Encoding`; a client that accepts neither gets the original. index.html carries,
 * per path, the preloads of the screen's code and first API reads (preload.ts). Source maps are not
 * in the folder (source-maps.ts); `sourceMaps` serves them from beside it to those it lets in.
 *
 * Per request: `pageHead` (the share feature's, handed in by app.ts) gives the page its title,
 * description and link preview; and the home's and a seller page's first API answer is put in the
 * HTML as a data block (`initialData`), asked of this server itself with the visitor's cookie.
 */
export async function webRoutes(
  app: FastifyInstance,
  opts: { distDir: string; sourceMaps?: OpsAccess | null; pageHead?: (url: string) => Promise<string> },
): Promise<void> {
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
    const [head, data] = await Promise.all([opts.pageHead ? opts.pageHead(req.url).catch(() => undefined) : undefined, initialData(app, req, url)]);
    const page = pages.render(url, req.headers['accept-encoding'], { ...(head ? { head } : {}), ...(data ? { bodyEnd: data } : {}) });
    // A signed-in visitor's data (their bookmarks, whom they follow) is theirs: no shared cache keeps it.
    const personal = Boolean(data && req.headers.cookie);
    reply
      .header('Cache-Control', personal ? 'private, no-cache' : 'no-cache')
      .header('Vary', 'Accept-Encoding')
      .type('text/html; charset=utf-8');
    if (page.encoding !== 'identity') reply.header('Content-Encoding', page.encoding);
    return reply.send(page.body);
  });
}

/** The most the page waits for its first data: past this it is sent without, and the page asks as usual. */
const INITIAL_DATA_WAIT_MS = 800;

/**
 * The screen's first API answers as data blocks, or '' for each that has none (no such screen, any
 * answer but a 200 JSON, an error, too slow). Asked of this same server through inject, at once, as
 * the visitor (their cookie and address, so the route's rate limit and `reminded`/`following` are theirs).
 */
async function initialData(app: FastifyInstance, req: FastifyRequest, pathname: string): Promise<string> {
  const query = req.url.indexOf('?');
  const targets = initialDataUrls(screenForPath(pathname), query < 0 ? '' : req.url.slice(query));
  const blocks = await Promise.all(targets.map((target) => initialAnswer(app, req, target)));
  return blocks.join('');
}

async function initialAnswer(app: FastifyInstance, req: FastifyRequest, target: string): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const answer = Promise.resolve(
      app.inject({
        method: 'GET',
        url: target,
        remoteAddress: req.ip,
        headers: { accept: 'application/json', ...(req.headers.cookie ? { cookie: req.headers.cookie } : {}) },
      }),
    ).catch(() => null);
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), INITIAL_DATA_WAIT_MS);
    });
    const res = await Promise.race([answer, late]);
    if (res?.statusCode !== 200 || !String(res.headers['content-type'] ?? '').startsWith('application/json')) return '';
    return dataBlock(target, res.body);
  } catch {
    return '';
  } finally {
    clearTimeout(timer);
  }
}
