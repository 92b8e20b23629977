import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/server.js';

// The real files of public/ (what Vite copies into the build), served from a build in miniature.
const root = fileURLToPath(new URL('../../../', import.meta.url));
let parent = '';
let server: TestServer;

beforeAll(async () => {
  parent = await mkdtemp(path.join(tmpdir(), 'martillo-app-files-'));
  const webDir = path.join(parent, 'web');
  await mkdir(webDir, { recursive: true });
  for (const file of ['sw.js', 'manifest.webmanifest', 'icons']) await cp(path.join(root, 'public', file), path.join(webDir, file), { recursive: true });
  await writeFile(path.join(webDir, 'index.html'), '<!doctype html><html lang="es-MX"><head><title>Martillo</title></head><body></body></html>');
  server = await startTestServer({ webDir, listen: false });
});
afterAll(async () => {
  await server?.close();
  await rm(parent, { recursive: true, force: true });
});

const get = (url: string) => server.app.inject({ method: 'GET', url });

describe('the service worker at /sw.js', () => {
  it('is JavaScript at the root (so its scope is the whole site) and always revalidated, never a stale copy', async () => {
    const res = await get('/sw.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain("addEventListener('push'");
    expect(res.body).toContain("addEventListener('notificationclick'");
    // It caches no app code: a new deploy is never hidden behind an old bundle.
    expect(res.body).not.toMatch(/caches\.|addEventListener\('fetch'/);
  });
});

describe('the web app manifest', () => {
  it('is served as application/manifest+json with the name, the start, standalone display and es-MX', async () => {
    const res = await get('/manifest.webmanifest');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = res.json() as Record<string, unknown>;
    expect(manifest).toMatchObject({ name: 'Martillo', short_name: 'Martillo', start_url: '/', display: 'standalone', lang: 'es-MX' });
    expect(manifest.theme_color).toBe('#9c2f1f');
  });

  it('names 192 and 512 px PNG icons and a maskable one, each served at the size it claims', async () => {
    const manifest = (await get('/manifest.webmanifest')).json() as { icons: { src: string; sizes: string; type: string; purpose: string }[] };
    expect(manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose}`).sort()).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
    for (const icon of manifest.icons) {
      const res = await get(icon.src);
      expect(res.statusCode, icon.src).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      const meta = await sharp(res.rawPayload).metadata();
      expect(`${meta.width}x${meta.height}`, icon.src).toBe(icon.sizes);
      expect(meta.format).toBe('png');
    }
  });

  it("is linked from the app's HTML with the theme colour and the iPhone's home-screen icon", async () => {
    const html = await readFile(path.join(root, 'index.html'), 'utf8');
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest" />');
    expect(html).toContain('<meta name="theme-color" content="#9c2f1f" />');
    expect(html).toMatch(/<link rel="apple-touch-icon" href="\/icons\/apple-touch-icon.png" \/>/);
    const res = await get('/icons/apple-touch-icon.png');
    expect(res.statusCode).toBe(200);
    expect((await sharp(res.rawPayload).metadata()).width).toBe(180);
  });
});
