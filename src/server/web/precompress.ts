import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** What a browser downloads as text; source maps are left out (only developer tools fetch them). */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
/** Below this a compressed copy saves less than its own headers cost. */
const MIN_BYTES = 1024;

/** Every file under `dir`, recursively. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)])));
  return nested.flat();
}

/**
 * Writes `file.br` and `file.gz` next to each compressible file of `dir` (at the best, slowest
 * settings: it runs once per build, and every visitor gets the smaller file), keeping only copies
 * smaller than the original. The server picks one by the request's Accept-Encoding (static.ts).
 */
export async function precompressDir(dir: string): Promise<{ files: number }> {
  const targets = [];
  for (const file of await filesUnder(dir)) {
    if (COMPRESSIBLE.test(file) && (await stat(file)).size >= MIN_BYTES) targets.push(file);
  }
  await Promise.all(
    targets.map(async (file) => {
      const raw = await readFile(file);
      const [br, gz] = await Promise.all([
        brotli(raw, {
          params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
        }),
        gzipAsync(raw, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      if (br.length < raw.length) await writeFile(`${file}.br`, br);
      if (gz.length < raw.length) await writeFile(`${file}.gz`, gz);
    }),
  );
  return { files: targets.length };
}

/** Vite plugin: precompresses the build output once it is written (so `npm start` serves it as is). */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'martillo-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    // After the whole output is written, the copied public/ folder included.
    async closeBundle(error?: Error) {
      if (!error) await precompressDir(outDir);
    },
  };
}
