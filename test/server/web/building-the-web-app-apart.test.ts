import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureWebBundleApart } from '../../../src/server/web/bundle.js';

/**
 * The development start builds the web app in a child process (so Vite's memory never enters the
 * server's): on a small project of its own here, a page and a Vite configuration, with this
 * checkout's packages.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function project(viteConfig: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'martillo-web-build-'));
  folders.push(dir);
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html lang="es-MX"><body><div id="root">Martillo</div></body></html>\n');
  writeFileSync(path.join(dir, 'vite.config.ts'), viteConfig);
  return dir;
}

describe('building the web app in a child process', () => {
  it('builds dist/web when it is missing, then starts nothing while its sources are unchanged', async () => {
    const dir = project('export default {};\n');
    await ensureWebBundleApart(dir);
    const page = path.join(dir, 'dist/web/index.html');
    expect(readFileSync(page, 'utf8')).toContain('Martillo');
    const stamp = readFileSync(path.join(dir, 'dist/web/.build-stamp'), 'utf8');

    // Current: no child runs, so a page removed behind its back is not made again.
    rmSync(page);
    writeFileSync(page, 'kept');
    await ensureWebBundleApart(dir);
    expect(readFileSync(page, 'utf8')).toBe('kept');
    expect(readFileSync(path.join(dir, 'dist/web/.build-stamp'), 'utf8')).toBe(stamp);
  }, 60_000);

  it('two starts at once each finish, and leave one whole build and nothing half-made beside it', async () => {
    const dir = project('export default {};\n');
    await Promise.all([ensureWebBundleApart(dir), ensureWebBundleApart(dir)]);
    expect(readFileSync(path.join(dir, 'dist/web/index.html'), 'utf8')).toContain('Martillo');
    expect(existsSync(path.join(dir, 'dist/web/.build-stamp'))).toBe(true);
    expect(readdirSync(path.join(dir, 'dist'))).toEqual(['web']);
  }, 60_000);

  it('fails with a message when the build fails, and leaves no stamp that would skip the next try', async () => {
    const dir = project("throw new Error('configuración rota');\n");
    await expect(ensureWebBundleApart(dir)).rejects.toThrow(/the web app could not be built \(exit 1\)/);
    expect(existsSync(path.join(dir, 'dist/web/.build-stamp'))).toBe(false);
    // Nor the folder the failed build was writing.
    expect(existsSync(path.join(dir, 'dist')) ? readdirSync(path.join(dir, 'dist')) : []).toEqual([]);
  }, 60_000);
});
