import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBundle } from '../../../src/server/web/bundle.js';
import { startTestServer, type TestServer } from '../../support/server.js';

/**
 * A production build hands browsers no source maps: built with the project's own Vite
 * configuration (a small app of its own here, as `npm run build` builds the real one), the served
 * folder holds no `.map` file and its scripts name none; the maps sit beside it, on the server,
 * and SERVE_SOURCE_MAPS serves them to the operators only (those who may read /metrics).
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const TOKEN = 'mapas-0123456789abcdef0123456789abcdef';
const OUTSIDER = '203.0.113.9';
const SOURCE_LINE = 'const subastaSecreta = "comentario que sólo el servidor debe ver";';

let project = '';
let webDir = '';
let mapsDir = '';
const servers: TestServer[] = [];

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

beforeAll(async () => {
  project = mkdtempSync(path.join(os.tmpdir(), 'martillo-source-maps-'));
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(project, 'node_modules'));
  writeFileSync(path.join(project, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(path.join(project, 'vite.config.ts'), `export { default } from ${JSON.stringify(path.join(ROOT, 'vite.config.ts'))};\n`);
  writeFileSync(
    path.join(project, 'index.html'),
    '<!doctype html><html lang="es-MX"><head><title>Martillo</title><script type="module" src="/main.ts"></script></head><body><div id="root"></div></body></html>\n',
  );
  writeFileSync(path.join(project, 'estilo.css'), '.tarjeta { color: #1a1b1e; }\n'.repeat(20));
  writeFileSync(
    path.join(project, 'main.ts'),
    `import './estilo.css';\n${SOURCE_LINE}\ndocument.getElementById('root')?.append(String(subastaSecreta.length));\nimport('./lote').then((m) => m.abrir());\n`,
  );
  writeFileSync(path.join(project, 'lote.ts'), 'export function abrir() {\n  document.title = "Lote abierto";\n}\n');
  await ensureWebBundle(project, () => {});
  webDir = path.join(project, 'dist/web');
  mapsDir = path.join(project, 'dist/web-sourcemaps');
}, 120_000);
afterAll(async () => {
  for (const s of servers.splice(0)) await s.close();
  if (project) rmSync(project, { recursive: true, force: true });
});

async function serve(env: Record<string, string> = {}): Promise<TestServer> {
  const server = await startTestServer({ webDir, listen: false, env });
  servers.push(server);
  return server;
}

/** The built entry script's path, as index.html names it. */
function entryScript(): string {
  const html = readFileSync(path.join(webDir, 'index.html'), 'utf8');
  const src = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  if (!src) throw new Error(`index.html names no script:\n${html}`);
  return src;
}

describe('the production build and its source maps', () => {
  it('keeps every .map out of the served folder, and names none in its scripts and styles', () => {
    const served = filesUnder(webDir);
    expect(served.filter((f) => f.endsWith('.js')).length).toBeGreaterThanOrEqual(2);
    expect(served.filter((f) => f.endsWith('.map'))).toEqual([]);
    for (const file of served.filter((f) => /\.(js|css)$/.test(f))) {
      expect(readFileSync(path.join(webDir, file), 'utf8'), file).not.toMatch(/sourceMappingURL/);
    }
  });

  it('keeps the maps beside it, one per script, with the sources they map', () => {
    const scripts = filesUnder(webDir).filter((f) => f.endsWith('.js'));
    expect(filesUnder(mapsDir).sort()).toEqual(scripts.map((f) => `${f}.map`).sort());
    const entry = JSON.parse(readFileSync(path.join(mapsDir, `${entryScript().slice(1)}.map`), 'utf8')) as { sources: string[]; sourcesContent?: string[] };
    expect(entry.sources.some((s) => s.endsWith('main.ts'))).toBe(true);
    expect(entry.sourcesContent?.join('\n')).toContain(SOURCE_LINE);
  });

  it('serves no map to anyone by default, this machine included', async () => {
    const server = await serve({ METRICS_TOKEN: TOKEN });
    const script = entryScript();
    const res = await server.app.inject({ url: script });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toMatch(/sourceMappingURL/);
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
      const map = await server.app.inject({ url: `${script}.map`, headers });
      expect(map.statusCode).toBe(404);
      expect(map.body).not.toContain(SOURCE_LINE);
    }
  });

  it('with SERVE_SOURCE_MAPS, serves them to this machine and to the token only', async () => {
    const server = await serve({ SERVE_SOURCE_MAPS: 'true', METRICS_TOKEN: TOKEN });
    const map = `${entryScript()}.map`;
    const fromHere = await server.app.inject({ url: map });
    expect(fromHere.statusCode).toBe(200);
    expect(fromHere.headers['cache-control']).toBe('private, no-store');
    expect(fromHere.body).toContain('subastaSecreta');
    const withToken = await server.app.inject({ url: map, remoteAddress: OUTSIDER, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(withToken.statusCode).toBe(200);
    const outsider = await server.app.inject({ url: map, remoteAddress: OUTSIDER });
    expect(outsider.statusCode).toBe(404);
    expect(outsider.body).not.toContain('subastaSecreta');
    // Nothing but a map from beside the build, and a missing one is a 404.
    for (const url of ['/assets/no-existe.js.map', '/assets/..%2F..%2Fvite.config.ts', '/assets/%2E%2E%2Findex.html.map']) {
      expect((await server.app.inject({ url })).statusCode, url).toBe(404);
    }
    // The app's own files are served as ever.
    expect((await server.app.inject({ url: entryScript() })).statusCode).toBe(200);
    expect(existsSync(path.join(webDir, 'index.html'))).toBe(true);
  });
});
