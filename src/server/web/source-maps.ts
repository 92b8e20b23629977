import { mkdir, readdir, rename } from 'node:fs/promises';
import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * The web app's source maps never sit in the folder the server serves (they would hand anyone the
 * app's sources, comments included): the build writes them without a `sourceMappingURL` comment
 * (`sourcemap: 'hidden'`) and they move to a folder beside it, `dist/web-sourcemaps` for
 * `dist/web`, the same paths inside. They stay on the server for whoever decodes a stack trace, and
 * SERVE_SOURCE_MAPS serves them to the operators only (static.ts).
 */
export function sourceMapsDir(webDir: string): string {
  return `${path.resolve(webDir)}-sourcemaps`;
}

async function mapsUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) => (e.isDirectory() ? mapsUnder(path.join(dir, e.name)) : e.name.endsWith('.map') ? [path.join(dir, e.name)] : [])),
  );
  return nested.flat();
}

/** Moves every `.map` file under `webDir` to `sourceMapsDir(webDir)`; answers how many. */
export async function moveSourceMaps(webDir: string): Promise<number> {
  const maps = await mapsUnder(webDir);
  const target = sourceMapsDir(webDir);
  for (const file of maps) {
    const to = path.join(target, path.relative(webDir, file));
    await mkdir(path.dirname(to), { recursive: true });
    await rename(file, to);
  }
  return maps.length;
}

/** Vite plugin: once the build is written, its source maps leave the output folder (moveSourceMaps). */
export function sourceMapsApart(): Plugin {
  let outDir = '';
  return {
    name: 'martillo-source-maps-apart',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle(error?: Error) {
      if (!error) await moveSourceMaps(outDir);
    },
  };
}
